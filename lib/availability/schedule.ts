/**
 * The structured availability inputs of the API:
 *  - `schedule`: the grid itself, as boolean[7][18] or as a flat map { "<day>_<slot>": boolean }
 *    (day 0-6 = Mon-Sun, slot 0-17 = 6am-11pm; e.g. "5_3": true = Saturday 9-10am);
 *  - `availability` (deprecated): [{ day: 'mon', period: 'evening' }, ...] using the
 *    named periods of grid.ts.
 */
import { z } from 'zod';
import { singleLine } from '../core/text-rule';
import { DAY_KEYS, DAYS, emptyGrid, fillSlots, mapGrid, PERIODS, SLOTS, type Grid } from './grid';

/** Keys of the map form: day 0-6, underscore, slot 0-17, no leading zeros. */
export const SLOT_KEY_PATTERN = /^[0-6]_(\d|1[0-7])$/;

const KEY_HELP = 'keys are "<day>_<slot>" with day 0-6 (0 = Monday) and slot 0-17 (0 = 6am, 17 = 11pm)';

const dayRowSchema = z
  .array(z.boolean({ error: 'each slot must be true or false' }), {
    error: `each day must be an array of ${SLOTS} booleans`,
  })
  .length(SLOTS, `each day must have exactly ${SLOTS} slots (6am-11pm)`);

const scheduleArraySchema = z
  .array(dayRowSchema, { error: `schedule must be an array of ${DAYS} days` })
  .length(DAYS, `schedule must have exactly ${DAYS} days (Monday-Sunday)`);

const scheduleMapSchema = z.record(
  singleLine().regex(SLOT_KEY_PATTERN, `invalid slot key: ${KEY_HELP}`),
  z.boolean({ error: 'each slot must be true or false' }),
);

/**
 * zod reports a failed union as a bare "Invalid input"; since the input's own type tells
 * which form was meant, surface that form's first problem instead.
 */
function unionMessage(issue: {
  code?: string;
  input?: unknown;
  errors?: ReadonlyArray<ReadonlyArray<z.core.$ZodIssue>>;
}): string {
  const generic = `schedule must be ${DAYS} arrays of ${SLOTS} booleans, or an object like {"5_3": true} (${KEY_HELP})`;
  const input = issue.input;
  if (issue.code !== 'invalid_union' || input === null || typeof input !== 'object') return generic;
  const first = issue.errors?.[Array.isArray(input) ? 0 : 1]?.[0];
  if (!first) return generic;
  const [day, slot] = first.path.map(String);
  if (day === undefined) return first.message;
  if (!Array.isArray(input)) {
    return first.code === 'invalid_key'
      ? `invalid slot key ${JSON.stringify(day)}: ${KEY_HELP}`
      : `${JSON.stringify(day)}: ${first.message}`;
  }
  return `day ${day}${slot === undefined ? '' : ` slot ${slot}`}: ${first.message}`;
}

export const scheduleInputSchema = z
  .union([scheduleArraySchema, scheduleMapSchema], { error: unionMessage })
  .describe(
    'Weekly grid: 7 days (Monday first) of 18 one-hour slots (6am-11pm) as booleans, or a map like {"5_3": true} (Saturday 9-10am)',
  );
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

export const legacyAvailabilitySchema = z.array(
  z.strictObject({
    day: z.enum(DAY_KEYS),
    period: z.enum(['morning', 'afternoon', 'evening']),
  }),
);
export type LegacyAvailability = z.infer<typeof legacyAvailabilitySchema>;
export type LegacyAvailabilityItem = LegacyAvailability[number];

/**
 * Converts either schedule form into a grid. Validates first (throws ZodError), so a
 * caller that skipped the request schema cannot store a half-understood schedule.
 */
export function scheduleFromInput(input: boolean[][] | Record<string, boolean>): Grid {
  const parsed = scheduleInputSchema.parse(input);
  if (Array.isArray(parsed)) return mapGrid((d, s) => parsed[d]?.[s] === true);
  const grid = emptyGrid();
  for (const [key, on] of Object.entries(parsed)) {
    if (!on) continue;
    const [day, slot] = key.split('_').map(Number);
    if (day === undefined || slot === undefined) continue;
    fillSlots(grid, [day], slot, slot);
  }
  return grid;
}

/** Expands deprecated {day, period} items into the grid (validates; throws ZodError). */
export function gridFromLegacyAvailability(items: LegacyAvailability): Grid {
  const grid = emptyGrid();
  for (const { day, period } of legacyAvailabilitySchema.parse(items)) {
    const [from, to] = PERIODS[period];
    fillSlots(grid, [DAY_KEYS.indexOf(day)], from, to);
  }
  return grid;
}
