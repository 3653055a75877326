import { handleAuthRequest } from '@/lib/auth/handler';

// GET /auth/* – Auth.js: CSRF token, session, provider list (HTML pages redirect to /signin)
export const GET = (request: Request) => handleAuthRequest(request);

// POST /auth/* – Auth.js: password sign-in, sign-in link use, "email me a link", sign-out
export const POST = (request: Request) => handleAuthRequest(request);
