// The doors a request meets before Next.js, in the one order they are tried. Each answers
// what it owns and lets the rest pass; what none answers is Next.js's. The order matters:
// a malformed target is refused before anything reads it, /api's wrong methods and
// oversized bodies before any route, and the poll door before the route door it hands to.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerBadRequestTarget } from '@/lib/http/request-target';
import { answerOauth } from '@/lib/oauth/front-door';
import { answerApiFrontDoor } from './api';
import { answerHomePage } from './home';
import { answerLegalPages } from './legal';
import { parkUnchangedInboxPoll } from './poll';
import { answerFromRoute, directRoute } from './route';
import { answerSharePages } from './share';
import { answerBrotliStatic } from './static';

/**
 * True when the door answers the request (now or later); false to pass it on. A door that
 * decides later (a parked poll, a route module without the method) calls `onward`, which
 * tries the doors after it and then Next.js.
 */
export type Door = (req: IncomingMessage, res: ServerResponse, onward: () => void) => boolean;

export interface DoorOptions {
  /** PUBLIC_BASE_URL is https: pages' CSP upgrades insecure requests. */
  https: boolean;
  /** Where the build keeps the app's scripts and styles (STATIC_DIR, absolute). */
  staticDir: string;
}

export function doors({ https, staticDir }: DoorOptions): readonly Door[] {
  return [
    // A path Next.js could not decode (malformed percent-encoding) gets a 400, not a 500.
    answerBadRequestTarget,
    // Wrong methods, oversized bodies and trailing slashes under /api, from the contract table (no body read).
    answerApiFrontDoor,
    // OAuth for assistants: metadata, oidc-provider's endpoints, the consent form's answer.
    answerOauth,
    // The home page, as plain HTML with no client runtime.
    (req, res) => answerHomePage(req, res, { https }),
    // The privacy policy and the terms of use, plain HTML too.
    (req, res) => answerLegalPages(req, res, { https }),
    // A shared plan's page and the contact's unsubscribe page, plain HTML too.
    (req, res) => answerSharePages(req, res, { https }),
    // The app's scripts and styles, brotli-compressed at build time.
    (req, res) => answerBrotliStatic(req, res, staticDir),
    // An unchanged inbox long-poll waits here, not in a route; anything new goes on to the route.
    parkUnchangedInboxPoll,
    // Every contract route (and /api/mcp) is answered by its handler without Next.js's pipeline.
    (req, res, onward) => {
      const direct = directRoute(req);
      if (!direct) return false;
      void answerFromRoute(req, res, direct, onward);
      return true;
    },
  ];
}

/** Tries `list` from `from` on; `last` (Next.js) answers what no door did. */
export function enter(list: readonly Door[], req: IncomingMessage, res: ServerResponse, last: () => void, from = 0) {
  for (let i = from; i < list.length; i++) {
    if (list[i]!(req, res, () => enter(list, req, res, last, i + 1))) return;
  }
  last();
}
