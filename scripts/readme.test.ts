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

/** Relative link and image targets (`#anchor` alone: this page), outside code blocks and code spans. */
function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/\bsrc="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('README.md and docs/', () => {
  it(`keeps README.md at most ${README_MAX_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('links only to files and headings that exist', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(10);
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const target of relativeTargets(fs.readFileSync(path.join(root, file), 'utf8'))) {
        checked++;
        const [page = '', anchor] = decodeURI(target).split('#');
        const resolved = page === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), page);
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
