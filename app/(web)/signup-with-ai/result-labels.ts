// Words for the done view's lists.

export const MISSING_LABELS: Record<string, string> = {
  displayName: 'your name',
  aboutMe: 'a few words about you',
  gender: 'your gender',
  birthday: 'your birthday',
  location: 'your location',
  coords: 'a location we can find on the map',
  activities: 'at least one activity',
  schedule: 'when you are free',
  photo: 'a photo',
};

/** ["Craft beer", "Wine tasting", "Coffee"] → "Craft beer, Wine tasting or Coffee". */
export function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
