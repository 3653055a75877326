// Imported first by scripts/start.ts, so it runs before any other module is evaluated:
// React (the home page is rendered outside Next.js, lib/http/home-front-door.tsx) picks
// its development or production build when it is first loaded, from NODE_ENV. `npm start`
// is a production server; without this it loaded React's development build (slower, and
// several MB more resident).
const env = process.env as Record<string, string | undefined>;
env.NODE_ENV ??= 'production';
