// `npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile>`: where a server's CPU went
// under load (a profile from `node --cpu-prof`, e.g. `npm run bench:endpoints -- --profile`),
// as shares of the busy (non-idle) samples:
//   - self time by where the code lives (Next.js, zod, pg, Kysely, our bundle, Node itself, GC);
//   - inclusive time of the request path's parts, by function name on the stack.
import fs from 'node:fs';
import { inclusiveShares, selfShares, type CpuProfile } from './cpu-profile';

const file = process.argv[2];
if (!file) throw new Error('usage: cpu-profile-summary <file.cpuprofile>');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
console.log('Self time by where the code lives (share of busy samples):');
console.table(selfShares(profile).map(([where, share]) => ({ where, share: pct(share) })));
console.log('Inclusive time of the parts of the request path:');
console.table(inclusiveShares(profile).map(([part, share]) => ({ part, share: pct(share) })));
