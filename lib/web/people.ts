// Words about a person that client components show too (kept apart from labels.ts,
// which pulls in the activity catalog).

/** "34", "In their 30s" (when they show only the decade), or null when unknown. */
export function ageText(profile: { age: number | null; age_bucket: string | null }): string | null {
  if (profile.age !== null) return `${profile.age}`;
  if (profile.age_bucket) return `In their ${profile.age_bucket}`;
  return null;
}
