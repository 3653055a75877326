import type { MetadataRoute } from 'next';
import { SITE } from './_components/site-chrome';

// GET /manifest.webmanifest – makes the site installable ("Add to home screen").
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'Buddy Match',
    short_name: 'Buddy Match',
    description: 'Find someone to go hiking, climbing or to a gig with: through your AI assistant or here.',
    start_url: '/account',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: SITE.themeColor,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}
