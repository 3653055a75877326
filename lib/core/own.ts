// Lookups by a key that came from outside (a query word, a JSON key, a path): a plain object inherits
// "constructor", "toString", "__proto__" and friends from Object.prototype, so `table[word]` on one
// answers a function for those words (issue 41 §3: `activities=constructor` was a 500). These read and
// write own entries only.

/** `record[key]` when it is the record's own entry; undefined for anything inherited. */
export function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** An empty record with no prototype: any key, "__proto__" included, is just a key. */
export function emptyRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
