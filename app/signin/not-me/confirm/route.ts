import { notMeConfirmGet, notMeConfirmPost } from '@/lib/web/not-me-confirm';

// GET /signin/not-me/confirm – never acts (mail scanners fetch URLs): back to the page that asks
export const GET = (request: Request) => notMeConfirmGet(request);

// POST /signin/not-me/confirm – "This wasn't me": disable the account the link was mailed about
export const POST = (request: Request) => notMeConfirmPost(request);
