import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedInUse, embeddedInUseMessage } from './embedded';

// `npm run seed:demo` beside a running server once died with triggerUncaughtException(undefined).
describe('embeddedInUse', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-'));
  const pidFile = path.join(dir, 'postmaster.pid');

  it('sees a data directory held by a live process, and says what to do', () => {
    fs.writeFileSync(pidFile, `${process.pid}\n${dir}\n1700000000\n5432\n`);
    expect(embeddedInUse(dir)).toBe(true);
    expect(embeddedInUseMessage(dir)).toMatch(/stop that server.*\n.*DATABASE_URL/s);
  });

  it('ignores a stale pid file and a missing one', () => {
    fs.writeFileSync(pidFile, '2147483646\n');
    expect(embeddedInUse(dir)).toBe(false);
    fs.rmSync(pidFile);
    expect(embeddedInUse(dir)).toBe(false);
  });
});
