import * as plans from '@/lib/contract/plans';
import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { calendarResponse, planIcs } from '@/lib/plans/calendar-feed';
import { getPlan } from '@/lib/plans/plans';

// GET /api/v1/plans/{planId}.json – one of the caller's plans (the segment arrives with .json; the contract strips it).
const planJson = route(plans.getPlan, async ({ db, auth, params, baseUrl }) =>
  getPlan(db, { viewerId: auth.userId, planId: params.planId, baseUrl }),
);

// GET /api/v1/plans/{planId}.ics – the same plan as an iCalendar file (RFC 5545).
const planCalendar = route(webApp.planCalendar, async ({ db, auth, params, baseUrl }) => {
  const { ics, filename } = await planIcs(db, { viewerId: auth.userId, planId: params.planId, baseUrl });
  return calendarResponse(ics, filename);
});

// One route file serves both: Next.js routes /plans/x.json and /plans/x.ics to the same [planId] segment.
export async function GET(request: Request, context: { params: Promise<Record<string, string | string[]>> }) {
  const { planId } = await context.params;
  return (String(planId).endsWith('.ics') ? planCalendar : planJson)(request, context);
}
