// The public catalog as served by GET /api/v1/activities.json, so agents can pick
// canonical ids directly instead of relying on plain-English matching.
import { ACTIVITIES } from './catalog';

export interface ActivityListItem {
  id: string;
  name: string;
  category: string;
  aliases: string[];
}

export interface ActivityCatalogResponse {
  activities: ActivityListItem[];
  total: number;
}

/** A fresh, mutable copy each call: the shared catalog itself is frozen. */
export function activityCatalog(): ActivityCatalogResponse {
  const activities = ACTIVITIES.map(({ id, name, category, aliases }) => ({
    id,
    name,
    category,
    aliases: [...aliases],
  }));
  return { activities, total: activities.length };
}
