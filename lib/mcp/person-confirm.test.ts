import { describe, expect, it } from 'vitest';
import { callerCapabilities, canonicalPayload, declaresUi } from './person-confirm';

describe('canonicalPayload', () => {
  it('is the same for the same action whatever the key order, and differs for any change', () => {
    const shown = { slug: 'maya-k', message: 'Hi', activityIds: ['hiking'] };
    expect(canonicalPayload({ activityIds: ['hiking'], message: 'Hi', slug: 'maya-k', note: undefined })).toBe(
      canonicalPayload(shown),
    );
    expect(canonicalPayload({ ...shown, message: 'Hi!' })).not.toBe(canonicalPayload(shown));
    expect(canonicalPayload({ ...shown, activityIds: ['hiking', 'coffee'] })).not.toBe(canonicalPayload(shown));
  });
});

describe('declaresUi', () => {
  it('is true only for a client that lists the MCP Apps MIME type under io.modelcontextprotocol/ui', () => {
    const ui = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
    expect(declaresUi(ui)).toBe(true);
    expect(declaresUi({ extensions: { 'io.modelcontextprotocol/ui': {} } })).toBe(false);
    expect(declaresUi({})).toBe(false);
    expect(declaresUi(undefined)).toBe(false);
  });
});

describe('callerCapabilities', () => {
  const ui = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  it("takes the request's own 2026-07-28 envelope first, else what initialize declared, else nothing", () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': ui,
    };
    expect(declaresUi(callerCapabilities(envelope, undefined))).toBe(true);
    expect(declaresUi(callerCapabilities({ ...envelope, 'io.modelcontextprotocol/clientCapabilities': {} }, ui))).toBe(
      false,
    );
    expect(declaresUi(callerCapabilities(undefined, ui))).toBe(true);
    // A stateless 2025 tools/call: no envelope, and initialize went to another request.
    expect(declaresUi(callerCapabilities(undefined, undefined))).toBe(false);
  });
});
