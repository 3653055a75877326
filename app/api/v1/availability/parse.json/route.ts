import { parseAvailabilityText, summarizeGrid } from '@/lib/availability';
import * as profiles from '@/lib/contract/profiles';
import { route } from '@/lib/http/route';

// POST /api/v1/availability/parse.json – what availability_text would store, without storing it
export const POST = route(profiles.parseAvailability, async ({ body }) => {
  const { grid, unparsed, rounded, corrected } = parseAvailabilityText(body.text);
  const normalized = [...corrected, ...rounded].map((r) => `availability_text: ${r}`);
  return { grid, summary: summarizeGrid(grid), unparsed, normalized };
});
