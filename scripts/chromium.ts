// Where Debian's Chromium is, for the test run and the README screenshots.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** CHROMIUM_PATH, then /usr/bin/chromium; installs Debian's chromium when root with apt. */
export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((p): p is string => !!p);
  const found = candidates.find((p) => fs.existsSync(p));
  if (found) return found;
  const canApt = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (canApt) {
    process.stdout.write('Chromium not found: installing Debian package chromium…\n');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (install.status === 0 && fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  process.stderr.write('No Chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.\n');
  process.exit(1);
}
