import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackedSources } from './import-layers';
import { apiFilesFor, browserSpecsFor, importersOf } from './test-changed';
import { SPECS_BY_SOURCE, specFile } from './test-changed-map';

const root = path.resolve(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const allSpecs = tracked.filter((file) => /^e2e\/browser\/.+\.spec\.ts$/.test(file));
const importers = importersOf(trackedSources(root));
const specsFor = (...changed: string[]) => browserSpecsFor(changed, importers, allSpecs);

describe('npm run test:changed', () => {
  it('has a rule for every browser spec, and every rule names specs and sources that exist', () => {
    const named = new Set(SPECS_BY_SOURCE.flatMap((rule) => rule.specs.map(specFile)));
    expect(
      allSpecs.filter((spec) => !named.has(spec)),
      'specs no rule names',
    ).toEqual([]);
    expect(
      [...named].filter((spec) => !allSpecs.includes(spec)),
      'named specs that do not exist',
    ).toEqual([]);
    const stale = SPECS_BY_SOURCE.filter((rule) => !tracked.some((file) => file.startsWith(rule.prefix)));
    expect(
      stale.map((rule) => rule.prefix),
      'prefixes that match no file',
    ).toEqual([]);
  });

  it('runs the specs of a changed page, and of the pages that import a changed component', () => {
    expect(specsFor('app/(web)/docs/page.tsx')).toEqual(['e2e/browser/docs.spec.ts']);
    const chats = specsFor('app/account/chats/page.tsx');
    expect(chats).toContain('e2e/browser/chat-thread.spec.ts');
    expect(chats).not.toContain('e2e/browser/docs.spec.ts');
    expect(specsFor('app/_components/chat-thread.tsx')).toEqual(expect.arrayContaining(chats));
    // A spec or its helper changed: that spec, and the ones importing the helper.
    expect(specsFor('e2e/browser/plans.spec.ts')).toContain('e2e/browser/plans.spec.ts');
    expect(specsFor('e2e/browser/mcp-apps-show.ts')).toEqual(expect.arrayContaining(['e2e/browser/mcp-apps.spec.ts']));
  });

  it('runs every spec for the shared support and layout, and none for domain code the API tests cover', () => {
    expect(specsFor('e2e/browser/support.ts')).toEqual(allSpecs);
    expect(specsFor('app/globals.css')).toEqual(allSpecs);
    expect(specsFor('lib/plans/plans.ts')).toEqual([]);
    expect(specsFor('docs/testing.md')).toEqual([]);
  });

  it('adds the API files named after a changed domain', () => {
    const apiFiles = ['e2e/api/plans.test.ts', 'e2e/api/plan-reminders.test.ts', 'e2e/api/chats.test.ts'];
    expect(apiFilesFor(['lib/plans/reminders.ts'], apiFiles)).toEqual([
      'e2e/api/plans.test.ts',
      'e2e/api/plan-reminders.test.ts',
    ]);
    expect(apiFilesFor(['app/api/v1/chats/[chatId]/route.ts'], apiFiles)).toEqual(['e2e/api/chats.test.ts']);
    expect(apiFilesFor(['README.md', 'lib/config.ts'], apiFiles)).toEqual([]);
  });
});
