/**
 * Availability: the weekly 7x18 grid, its inputs (plain English, the structured
 * schedule, the deprecated {day, period} list) and its plain-English summary.
 */
import { mergeGrids, type Grid } from './grid';
import { parseAvailabilityText } from './parse';
import { gridFromLegacyAvailability, scheduleFromInput, type LegacyAvailability, type ScheduleInput } from './schedule';
import { summarizeGrid } from './summary';

export * from './grid';
export { MAX_TEXT_LENGTH, parseAvailabilityText, type ParseResult } from './parse';
export {
  gridFromLegacyAvailability,
  legacyAvailabilitySchema,
  scheduleFromInput,
  scheduleInputSchema,
  SLOT_KEY_PATTERN,
  type LegacyAvailability,
  type LegacyAvailabilityItem,
  type ScheduleInput,
} from './schedule';
export {
  describeDays,
  describeSlots,
  EMPTY_SUMMARY,
  formatHour,
  joinList,
  summarizeGrid,
  type DescribeSlotsOptions,
} from './summary';

export interface AvailabilityInput {
  availability_text?: string;
  schedule?: ScheduleInput;
  availability?: LegacyAvailability;
}

export interface ResolvedAvailability {
  /** null when no form was given (so the caller can leave the stored grid alone). */
  grid: Grid | null;
  summary: string | null;
  /** Fragments of availability_text that were not understood. */
  unparsed: string[];
  /** Times in availability_text between whole hours, with the hour counted for each. */
  rounded: string[];
  /** Misspelt words in availability_text and the word each was read as. */
  corrected: string[];
}

/**
 * Merges (OR) every availability form present. A blank availability_text counts as
 * not given. The structured forms are validated and throw ZodError when malformed.
 */
export function resolveAvailability(input: AvailabilityInput): ResolvedAvailability {
  const grids: Grid[] = [];
  let unparsed: string[] = [];
  let rounded: string[] = [];
  let corrected: string[] = [];
  if (typeof input.availability_text === 'string' && input.availability_text.trim() !== '') {
    const parsed = parseAvailabilityText(input.availability_text);
    grids.push(parsed.grid);
    ({ unparsed, rounded, corrected } = parsed);
  }
  if (input.schedule !== undefined && input.schedule !== null) grids.push(scheduleFromInput(input.schedule));
  if (input.availability !== undefined && input.availability !== null)
    grids.push(gridFromLegacyAvailability(input.availability));
  if (grids.length === 0) return { grid: null, summary: null, unparsed, rounded, corrected };
  const grid = mergeGrids(...grids);
  return { grid, summary: summarizeGrid(grid), unparsed, rounded, corrected };
}
