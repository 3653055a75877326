import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
/** A README a newcomer reads in five minutes (issue 35 §6); the rest lives in docs/. */
const README_MAX_BYTES = 15 * 1024;

function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return ['README.md', ...docs.sort()];
}

/** Relative link and image targets, outside code blocks and code spans. */
function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/\bsrc="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target));
}

describe('README.md and docs/', () => {
  it(`keeps README.md at most ${README_MAX_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('links only to files that exist', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(10);
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of relativeTargets(fs.readFileSync(path.join(root, file), 'utf8'))) {
        checked++;
        const resolved = path.resolve(root, path.dirname(file), decodeURI(target.replace(/[#?].*$/, '')));
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
