import { demoAvatarSvg } from '@/lib/discover/avatar';

// GET /demo-avatars/{initials}-{hue}.svg – the generated avatar of a seeded demo profile
export async function GET(_request: Request, context: { params: Promise<{ name: string }> }): Promise<Response> {
  const svg = demoAvatarSvg((await context.params).name);
  if (!svg) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(svg, {
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    },
  });
}
