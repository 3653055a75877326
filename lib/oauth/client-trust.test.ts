import { describe, expect, it } from 'vitest';
import { claimsKnownAssistant, clientTrust, imitatesService } from './client-trust';

describe('client names', () => {
  it.each([
    'Claude',
    'ChatGPT',
    'Ｃｌａｕｄｅ',
    'CIaude',
    'Сlaude',
    'OpenAI helper',
    'Anthropic',
    'Gemini',
    'GitHub Copilot',
    'GPT-5',
  ])('%s claims a known assistant', (name) => expect(claimsKnownAssistant(name)).toBe(true));
  it.each(['Cursor', 'MCP Inspector', 'My notes app'])('%s claims nothing', (name) => {
    expect(claimsKnownAssistant(name)).toBe(false);
    expect(imitatesService(name)).toBe(false);
  });
  it.each(['Buddy Match Safety Check', 'buddy-match', 'BUDDY MATCH', 'Buddy Mаtch'])(
    '%s passes for the service',
    (name) => expect(imitatesService(name)).toBe(true),
  );
});

describe('clientTrust', () => {
  it('verifies a known assistant only by its metadata document host', () => {
    expect(clientTrust('https://claude.ai/oauth/mcp-client.json', 'Claude')).toEqual({
      verified: true,
      assistant: 'Claude',
      host: 'claude.ai',
      by: 'metadata',
    });
    expect(clientTrust('https://apps.openai.com/client.json', 'Anything').verified).toBe(true);
  });
  // Issue 46 §2: Claude registers dynamically; the code can only reach the callback it registered.
  it('verifies a registered client by the known assistant host it returns to', () => {
    expect(clientTrust('f7a1c0de', 'Claude', 'https://claude.ai/api/mcp/auth_callback')).toEqual({
      verified: true,
      assistant: 'Claude',
      host: 'claude.ai',
      by: 'redirect',
    });
    expect(clientTrust('f7a1c0de', 'Anything', 'https://chatgpt.com/connector_platform_oauth_redirect').verified).toBe(
      true,
    );
    for (const uri of [
      'http://claude.ai/api/mcp/auth_callback',
      'https://claude.ai.evil.example/cb',
      'https://evilclaude.ai/cb',
      'http://127.0.0.1:7777/cb',
      'not a url',
    ])
      expect(clientTrust('f7a1c0de', 'Claude', uri), uri).toMatchObject({ verified: false, claimsAssistant: true });
  });
  it('never verifies by name, nor a lookalike host', () => {
    expect(clientTrust('f7a1c0de', 'Claude')).toEqual({ verified: false, host: null, claimsAssistant: true });
    expect(clientTrust('https://claude.ai.evil.example/c.json', 'Claude')).toMatchObject({
      verified: false,
      host: 'claude.ai.evil.example',
      claimsAssistant: true,
    });
    expect(clientTrust('https://evilclaude.ai/c.json', 'Claude').verified).toBe(false);
    expect(clientTrust('http://claude.ai/c.json', 'Claude').verified).toBe(false);
    expect(clientTrust('f7a1c0de', 'Cursor')).toEqual({ verified: false, host: null, claimsAssistant: false });
  });
});
