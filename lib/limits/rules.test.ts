import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { RATE_LIMIT_NAMES } from './rate-limits';
import { LIMIT_NAMES, LIMIT_RULES, limitsFromEnv, type LimitDeclaration } from './rules';

const root = path.resolve(import.meta.dirname, '../..');
const declared: LimitDeclaration[] = LIMIT_NAMES.map((name) => LIMIT_RULES[name]);
const declaredEnv = new Set(declared.map((rule) => rule.env));

/** Tracked source files (tests excluded: they set limits, they do not declare them). */
function trackedSources(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !/\.(test|spec)\.tsx?$/.test(file) && !file.startsWith('e2e/'));
}

/** README.md and docs/: where a limit could be documented without being declared. */
function trackedDocs(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', 'README.md', 'docs/*.md'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
}

// How a limit's variable is named here: REGISTRATION_LIMIT_PER_HOUR, SIGNIN_LINK_LIMIT_PER_IP.
const LIMIT_VARIABLE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_LIMIT_PER_[A-Z0-9_]+\b|\bSIGNIN_FAILURE_BACKOFF_AFTER\b/g;

describe('the limits table', () => {
  it('reads each limit from its variable, or its default; a bad value is refused by name', () => {
    const defaults = limitsFromEnv({});
    for (const name of LIMIT_NAMES) {
      expect(defaults[name]).toEqual({
        points: LIMIT_RULES[name].points,
        windowSeconds: LIMIT_RULES[name].windowSeconds,
        what: LIMIT_RULES[name].what,
      });
    }
    expect(limitsFromEnv({ MESSAGE_LIMIT_PER_10_MIN: '4' }).messages.points).toBe(4);
    expect(limitsFromEnv({ MESSAGE_LIMIT_PER_10_MIN: '' }).messages.points).toBe(20);
    for (const bad of ['-1', '2.5', 'ten'])
      expect(() => limitsFromEnv({ DISCOVER_LIMIT_PER_HOUR: bad })).toThrow('DISCOVER_LIMIT_PER_HOUR');
  });

  it('is what the configuration holds: counters and sign-in limits take their rule from it', () => {
    const vars: Record<string, string> = {
      REGISTRATION_LIMIT_PER_HOUR: '9',
      SIGNIN_FAILURE_LIMIT_PER_IP: '31',
      SIGNIN_LINK_LIMIT_PER_ACCOUNT: '2',
      PLAN_CONTACT_MAIL_LIMIT_PER_DAY: '1',
      EVENTS_LIMIT_PER_MINUTE: '7',
    };
    const cfg = loadConfig(vars as NodeJS.ProcessEnv);
    expect(cfg.limits.registrations).toEqual({ points: 9, windowSeconds: 3600, what: 'registrations' });
    expect(cfg.signinFailureLimits.perIp).toBe(31);
    expect(cfg.signinLinkLimits.perAccount).toBe(2);
    expect(cfg.planCheckin.contactMails.points).toBe(1);
    expect(cfg.rateLimits.events.points).toBe(7);
    expect(Object.keys(cfg.rateLimits).sort()).toEqual([...RATE_LIMIT_NAMES].sort());
  });

  it('declares each variable once, and each limit names what it counts and per whom', () => {
    expect(declaredEnv.size).toBe(declared.length);
    for (const rule of declared) {
      expect(rule.what).not.toBe('');
      expect(rule.per).toMatch(/^per /);
      expect(rule.windowSeconds).toBeGreaterThan(0);
    }
  });

  it('fails when a limit lives outside it: every limit variable in the code or the docs is declared here', () => {
    const outside: string[] = [];
    for (const file of [...trackedSources(), ...trackedDocs()]) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const [variable] of text.matchAll(LIMIT_VARIABLE))
        if (!declaredEnv.has(variable)) outside.push(`${file}: ${variable}`);
    }
    expect(outside).toEqual([]);
  });

  it('is the only place that reads a limit from the environment', () => {
    const readers = trackedSources().filter((file) => {
      if (file === 'lib/limits/rules.ts') return false;
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return [...declaredEnv].some((variable) =>
        new RegExp(`(process\\.env\\.${variable}\\b|env\\.${variable}\\b|['"\`]${variable}['"\`])`).test(text),
      );
    });
    expect(readers).toEqual([]);
  });

  it('is documented: docs/configuration.md has a row for every limit variable', () => {
    const configuration = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    for (const variable of declaredEnv) expect(configuration, variable).toContain(`\`${variable}\``);
  });
});
