// Slugs generated from display names: readable, ASCII, unique.
import { randomInt } from 'node:crypto';
import type { Database } from '@/db';
import { plainWords } from '../core/plain-words';

export function slugify(name: string): string {
  const base = plainWords(name, 30);
  return base.length >= 3 ? base : `${base || 'buddy'}-${randomInt(1000, 10000)}`.replace(/^-/, '');
}

/** The plain slug if free, else the slug with a random 4-digit suffix (checked, a few tries). */
export async function uniqueSlug(db: Database, displayName: string): Promise<string> {
  const base = slugify(displayName);
  const candidates = [base, ...Array.from({ length: 6 }, () => `${base}-${randomInt(1000, 10000)}`)];
  const taken = await db.selectFrom('users').select('slug').where('slug', 'in', candidates).execute();
  const used = new Set(taken.map((r) => r.slug));
  return candidates.find((c) => !used.has(c)) ?? `${base}-${randomInt(100000, 1000000)}`;
}
