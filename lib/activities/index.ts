// Public API of the activities module: the catalog and plain-English canonicalization.
export {
  ACTIVITIES,
  ACTIVITY_CATEGORIES,
  ACTIVITY_IDS,
  AMBIGUOUS_TERMS,
  getActivity,
  isActivityId,
  type Activity,
  type ActivityCategory,
} from './catalog';
export {
  canonicalizeActivities,
  matchActivity,
  suggestActivities,
  DEFAULT_SUGGESTION_LIMIT,
  type CanonicalizeResult,
} from './canonicalize';
export { activityCatalog, type ActivityCatalogResponse, type ActivityListItem } from './list';
