// The text rule of every string the API accepts: lib/core/text-rule.ts, re-exported here with the
// contract's human validation messages loaded, so each contract schema module gets both from one import.
import './human-errors';

export * from '../core/text-rule';
