// CPU time from /proc (Linux only), for benchmarks that report what a request costs in
// CPU rather than only in throughput: on a shared machine CPU time per request moves far
// less than requests per second do.
import fs from 'node:fs';
import path from 'node:path';

const CLOCK_TICKS = 100; // USER_HZ on Linux (getconf CLK_TCK)

/** CPU milliseconds a process (and its reaped children) has used. */
export function processCpuMs(pid: number, withChildren = false): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** PostgreSQL's CPU: the postmaster, its live backends and the ones that have exited. */
export function postgresCpuMs(postmasterPid: number): number {
  let total = processCpuMs(postmasterPid, true);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmasterPid) total += processCpuMs(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** The embedded PostgreSQL's postmaster under a test stack's data dir (null for DATABASE_URL's server). */
export function postmasterPidOf(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}
