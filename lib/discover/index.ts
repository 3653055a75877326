// Discover: ranked search for buddies nearby, and the free time two people share.
export {
  discover,
  discoverQuery,
  distanceSql,
  searchFor,
  searchForCaller,
  DISCOVER_PATH,
  RANKING_IN_WORDS,
  type CandidateRow,
  type DiscoverSearch,
} from './search';
export { sharedFreeTime, sharedWindows, describeSharedTime, freeTogetherWithEach, NO_SHARED_TIME } from './overlap';
export { toDiscoverCard } from './records';
export * from './ranking';
export { decodeCursor, encodeCursor, filtersFingerprint } from './cursor';
