// Two worlds: people under 18 and adults never see or reach each other (issue 41 §1, DESIGN.md "Ages").
// Among people under 18, at most TEEN_AGE_GAP_YEARS apart (by birthday). Like blocks, this is one
// predicate in one place, and every query that can bring two people together applies it; a person
// of the other world looks exactly like no one (the same 404 a non-existent person gets).
//
// The world is read from the birthday on the day asked (UTC), so turning 18 moves a person from that
// day. A person who has not given a birthday counts as an adult: they can never reach a teenager,
// and a teenager never reaches them (a birthday is required before anyone shows in Discover).
// Connections made while two people were in one world stay (their chat and plans go on); nothing
// new crosses.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { ADULT_AGE, ageRules, type AgeRules } from '../core/age-env';

export type AgeWorld = 'teen' | 'adult';

/** YYYY-MM-DD of the UTC day of `today`. */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The same calendar day `years` earlier (or later, for negative `years`); 29 February becomes 28 February. */
export function yearsBefore(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = y - years;
  const lastOfMonth = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastOfMonth)).padStart(2, '0')}`;
}

/** The latest birthday of an adult on `today`: anyone born on or before it is 18 or older. */
export function adultBornBy(today: Date = new Date()): string {
  return yearsBefore(isoDay(today), ADULT_AGE);
}

/** Which world a birthday belongs to on `today` (no birthday: the adults'). */
export function ageWorld(birthday: string | null | undefined, today: Date = new Date()): AgeWorld {
  return birthday && birthday > adultBornBy(today) ? 'teen' : 'adult';
}

/**
 * The birthdays a person may meet, as a range of YYYY-MM-DD: born after `after` (exclusive) and on
 * or before `through` (inclusive), either end open when null; `unknown` says whether people with no
 * birthday are in it. Adults: everyone born by the adult cutoff, and the unknown. Teenagers: other
 * teenagers born within the gap of their own birthday (same calendar day counts as within).
 */
export interface BirthdayRange {
  after: string | null;
  through: string | null;
  unknown: boolean;
}

export function reachableBirthdays(
  birthday: string | null | undefined,
  today: Date = new Date(),
  rules: Pick<AgeRules, 'teenGapYears'> = ageRules(),
): BirthdayRange {
  const cutoff = adultBornBy(today);
  if (ageWorld(birthday, today) === 'adult') return { after: null, through: cutoff, unknown: true };
  const earliest = yearsBefore(birthday!, rules.teenGapYears);
  const latest = yearsBefore(birthday!, -rules.teenGapYears);
  // Born after the cutoff (a teenager) and no earlier than `earliest`: "after" the day before it.
  const after = earliest > cutoff ? dayBefore(earliest) : cutoff;
  return { after, through: latest, unknown: false };
}

function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return isoDay(date);
}

/** Whether a birthday (or none) is in a range. */
export function inRange(range: BirthdayRange, birthday: string | null | undefined): boolean {
  if (!birthday) return range.unknown;
  return (range.after === null || birthday > range.after) && (range.through === null || birthday <= range.through);
}

/** Whether two people may meet by age: the rule is symmetric (a test checks it over generated pairs). */
export function canMeetByAge(
  a: string | null | undefined,
  b: string | null | undefined,
  today: Date = new Date(),
  rules: Pick<AgeRules, 'teenGapYears'> = ageRules(),
): boolean {
  return inRange(reachableBirthdays(a, today, rules), b);
}

/**
 * A WHERE condition, true for rows whose `birthdayColumn` the viewer may meet by age: the one SQL form of
 * the rule, for every query that brings people together (Discover's postings carry the birthday, so the
 * range is a plain filter there).
 */
export function reachableBirthdaysSql(
  viewerBirthday: string | null | undefined,
  birthdayColumn: string,
  today: Date = new Date(),
  rules: Pick<AgeRules, 'teenGapYears'> = ageRules(),
): RawBuilder<SqlBool> {
  return birthdayRangeSql(reachableBirthdays(viewerBirthday, today, rules), birthdayColumn);
}

/** birthdayColumn within `range`, as SQL. */
export function birthdayRangeSql(range: BirthdayRange, birthdayColumn: string): RawBuilder<SqlBool> {
  const column = sql.ref(birthdayColumn);
  const known = [
    range.after === null ? sql`true` : sql`${column} > ${range.after}::date`,
    range.through === null ? sql`true` : sql`${column} <= ${range.through}::date`,
  ];
  const inside = sql`(${known[0]} and ${known[1]})`;
  return range.unknown
    ? sql<SqlBool>`(${column} is null or ${inside})`
    : sql<SqlBool>`(${column} is not null and ${inside})`;
}

/**
 * The rule as one SQL expression over two birthday expressions, for queries that hold both sides in
 * SQL (lists, the inbox): `viewer` is often a scalar subquery of the caller's row. It is the same rule
 * as canMeetByAge (PostgreSQL's date minus years turns 29 February into 28 February as yearsBefore
 * does); e2e/api/age-worlds.test.ts checks the two agree over generated pairs on a real PostgreSQL.
 */
export function mayMeetByAgeSql(
  viewer: Expression<string | null>,
  other: Expression<string | null>,
  today: Date = new Date(),
  rules: Pick<AgeRules, 'teenGapYears'> = ageRules(),
): RawBuilder<SqlBool> {
  const cutoff = sql`${adultBornBy(today)}::date`;
  const gap = sql`make_interval(years => ${rules.teenGapYears}::int)`;
  return sql<SqlBool>`(case when ${viewer} is null or ${viewer} <= ${cutoff}
      then ${other} is null or ${other} <= ${cutoff}
      else ${other} is not null and ${other} > ${cutoff}
        and ${other} >= (${viewer} - ${gap})::date and ${other} <= (${viewer} + ${gap})::date end)`;
}

/** mayMeetByAgeSql with the viewer given by id (their birthday read in the same statement). */
export function mayMeetUserByAgeSql(viewerId: string, otherBirthdayColumn: string, today: Date = new Date()) {
  return mayMeetByAgeSql(
    sql<string | null>`(select birthday from users where id = ${viewerId}::uuid)`,
    sql.ref(otherBirthdayColumn),
    today,
  );
}
