// Items: what the matchers produce and the grouper consumes.
import { ALL_DAYS, ALL_SLOTS, type RoundedTime } from './masks';
import type { SepLevel } from './tokens';

export interface DaysItem {
  kind: 'days';
  mask: number;
  /** "weekends", "every day"…: a complete day set that should not absorb later days. */
  collective: boolean;
  /** "other nights": every day the text has not already named as free. */
  others?: boolean;
}
export interface TimeItem {
  kind: 'time';
  mask: number;
  allDay?: boolean;
  /**
   * Set on clock times. Right after a period they narrow it instead of adding to it
   * ("evenings after 7" = 19-24, "mornings 9-11"); two open-ended ones narrow each
   * other ("after 6pm before 9pm").
   */
  narrows?: 'open' | 'fixed';
  /** A clock range ("4:00 to 6:00"), which states a period's hours, unlike a point ("like 5 p.m."). */
  range?: boolean;
  /** Days implied when the clause names none ("after work" → weekdays). */
  defaultDays?: number;
  /** "whenever": any time, unless words we cannot read follow it ("whenever the moon is blue"). */
  condition?: boolean;
  /**
   * A bare hour's other reading ("from 8": 8am, or 8pm): right after a period it takes the one
   * that says when in that period ("evenings from 8" = 20-24).
   */
  otherReading?: number;
  /** The times off the hour of each reading, reported for the one used. */
  readingsRounded?: { guessed: RoundedTime[]; other: RoundedTime[] };
}
export type Item =
  | DaysItem
  | TimeItem
  /** `work`: "I work 9-5" — busy hours without days mean weekdays. */
  | { kind: 'neg'; except: boolean; work?: boolean }
  | { kind: 'sep'; level: SepLevel; bracket?: 'open' | 'close' }
  /**
   * `timeWord`: a time preposition left without its time ("after" in "after church");
   * `lostTime`: that, or a number that could not be read as a time.
   */
  | {
      kind: 'unknown';
      start: number;
      end: number;
      timeWord: boolean;
      lostTime: boolean;
      /** "if", "when", "unless": what follows is a condition on the clause before it. */
      condition?: boolean;
    };

export const daysItem = (mask: number, collective = true): DaysItem => ({ kind: 'days', mask, collective });
export const timeItem = (mask: number, extra: Omit<TimeItem, 'kind' | 'mask'> = {}): TimeItem => ({
  kind: 'time',
  mask,
  ...extra,
});
/** "not", "can't", "I work": says when the person is busy. */
export const NEG: Item = { kind: 'neg', except: false };
/** "except", "other than": takes something out of the clause it follows. */
export const EXCEPT: Item = { kind: 'neg', except: true };
export const WORK: Item = { kind: 'neg', except: false, work: true };
export const ALL_DAY = timeItem(ALL_SLOTS, { allDay: true });
export const WHENEVER = timeItem(ALL_SLOTS, { allDay: true, condition: true });
/** "busy other nights": the days not named free so far (resolved by the grammar). */
export const OTHER_DAYS: DaysItem = { kind: 'days', mask: ALL_DAYS, collective: true, others: true };

/** An item with the span of text it was read from. */
export interface Spanned {
  item: Item;
  start: number;
  end: number;
}
