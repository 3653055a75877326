import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '@/lib/config';
import { LIMIT_NAMES, LIMIT_RULES } from '@/lib/limits/rules';
import { CONFIGURATION_DOC, configurationDoc } from './docs-config';

const root = path.resolve(import.meta.dirname, '..');
const declared = new Set<string>([
  ...CONFIG_VARIABLES.map((v) => v.name),
  ...LIMIT_NAMES.map((name) => LIMIT_RULES[name].env),
]);
const NAME = '([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)';
/** `env.PORT`, `env['PORT']`, `intFromEnv(env, 'PORT', …)`, `portsFromEnv('X', env)`, `durationFromEnv('X', …)`. */
const ENV_READ = new RegExp(
  `env\\.${NAME}|env\\[['"]${NAME}['"]\\]|FromEnv\\((?:env, )?'${NAME}'|\\('${NAME}', env\\b`,
  'g',
);

/** lib/config.ts without its declaration table, whose descriptions name variables too. */
function configSource(): string {
  const text = fs.readFileSync(path.join(root, 'lib/config.ts'), 'utf8');
  return text.slice(0, text.indexOf('export const CONFIG_VARIABLES'));
}

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the declarations', () => {
    const onDisk = fs.readFileSync(path.join(root, CONFIGURATION_DOC), 'utf8');
    expect(onDisk === configurationDoc(), `${CONFIGURATION_DOC} is out of date: run \`npm run docs:config\``).toBe(
      true,
    );
  });

  it('declares every variable the configuration reads', () => {
    const read = [...configSource().matchAll(ENV_READ)].map((m) => m.slice(1).find(Boolean) ?? m[0]);
    expect(read.length).toBeGreaterThan(30);
    expect(read.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('declares only variables something reads', () => {
    const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mjs'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file !== '' && file !== 'lib/config.ts');
    const sources = [configSource(), ...files.map((file) => fs.readFileSync(path.join(root, file), 'utf8'))].join('\n');
    const unread = CONFIG_VARIABLES.map((v) => v.name).filter(
      (name) => !new RegExp(`env\\.${name}\\b|['"\`]${name}['"\`]`).test(sources),
    );
    expect(unread).toEqual([]);
  });
});
