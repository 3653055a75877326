// Activity id → name, for client components that show activities (passed from the server
// so the catalog is not bundled into every page).
import { ACTIVITIES } from '../activities';

export function activityNames(): Record<string, string> {
  return Object.fromEntries(ACTIVITIES.map((activity) => [activity.id, activity.name]));
}
