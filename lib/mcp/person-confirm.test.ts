import { describe, expect, it } from 'vitest';
import { canonicalPayload, declaresUi } from './person-confirm';

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
