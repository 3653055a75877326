// The security headers are set in one place: server/start.ts calls sendSecurityHeaders
// (lib/http/default-headers.ts) first for every request, and every answer, a door's, Next.js's
// or oidc-provider's, gets them from there. An answer sets only what is its own (a page's
// nonce CSP, a secret page's Referrer-Policy). This fails when code elsewhere adds them again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The shared values; a page's own CSP (pageContentSecurityPolicy) is not one of them. */
const SHARED = /\b(COMMON_SECURITY_HEADERS|HSTS_HEADER|API_CONTENT_SECURITY_POLICY)\b/;

const MAY_USE: Record<string, string> = {
  'lib/http/security-headers.ts': 'declares them',
  'lib/http/default-headers.ts': 'sets them on every answer',
  'lib/http/request-target.ts': 'writes the raw answer to a request Node could not parse: it has no response object',
};

it('only the server sets the shared security headers', () => {
  const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !/\.test\.tsx?$/.test(file) && fs.existsSync(path.join(root, file)));
  expect(files).toContain('server/start.ts');
  const users = files.filter((file) => SHARED.test(fs.readFileSync(path.join(root, file), 'utf8')));
  expect(users.sort()).toEqual(Object.keys(MAY_USE).sort());
  expect(fs.readFileSync(path.join(root, 'server/start.ts'), 'utf8')).toMatch(/sendSecurityHeaders\(res, /);
});
