// A meetup's times are read as a plan's are (lib/plans/time.ts): with an offset that instant,
// without one on the host's clock.
export { instantOn, isoInstant, readTimes, timeProblems } from '../plans/time';
