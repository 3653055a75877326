// Discover's card is the shared public card (lib/profiles/records.ts): one mapper decides
// what a stranger may see, here and on the public profile.
export { toDiscoverCard, type DiscoverCardSource } from '../profiles/records';
