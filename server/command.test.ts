import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS, SERVER_SCRIPT } from './command';

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('the server command', () => {
  it.each([
    ['start', ''],
    ['start:web', ' --role=web'],
    ['start:worker', ' --role=worker'],
  ])('npm run %s starts node with the flags the tests and benchmarks use', (script, role) => {
    expect(pkg.scripts[script]).toBe(`node ${[...SERVER_NODE_ARGS, SERVER_SCRIPT].join(' ')}${role}`);
  });
});
