import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { attributedTo, type Writer } from './attribution';
import { errorStatus } from '../http/error-response';

const claude: Writer = { via: 'bearer', agentName: 'Claude' };
const unnamed: Writer = { via: 'bearer', agentName: null };
const session: Writer = { via: 'session' };

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('attributedTo', () => {
  it('lets a body leave agentName out, whoever writes', () => {
    for (const writer of [claude, unnamed, session]) {
      expect(attributedTo({ text: 'hi' } as { text: string; agentName?: string | null }, writer)).toEqual({
        text: 'hi',
      });
      expect(attributedTo({ agentName: null }, writer)).toEqual({ agentName: null });
      expect(attributedTo({ agentName: '  ' }, writer)).toEqual({ agentName: '  ' });
    }
  });

  it('keeps the token’s own name, in its recorded spelling', () => {
    expect(attributedTo({ agentName: 'claude', agentSessionId: 's1' }, claude)).toEqual({
      agentName: 'Claude',
      agentSessionId: 's1',
    });
  });

  it.each([
    ['another agent', claude, 'ChatGPT', /^must be this token’s own agent, "Claude"/],
    ['a look-alike', claude, 'Claude ', null],
    ['any agent, from a token without one', unnamed, 'Claude', /^leave it out: this token has no agent name/],
    ['any agent, from the web session', session, 'Claude', /^leave it out: what you write signed in on the web/],
  ] as const)('refuses %s with 400 validation_failed on agentName', (_name, writer, agentName, reason) => {
    if (reason === null) {
      // Surrounding spaces are not another name.
      expect(attributedTo({ agentName }, writer)).toEqual({ agentName: 'Claude' });
      return;
    }
    const error = refusal(() => attributedTo({ agentName }, writer));
    expect(error.code).toBe('validation_failed');
    expect(errorStatus(error)).toBe(400);
    expect(Object.keys(error.fields ?? {})).toEqual(['agentName']);
    expect(error.fields?.agentName).toMatch(reason);
  });
});
