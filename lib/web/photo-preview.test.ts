import { describe, expect, it } from 'vitest';
import { photoPreview } from './photo-preview';

describe('photoPreview', () => {
  it('shows a data: image as a picture', () => {
    const src = `data:image/png;base64,${'iVBORw0KGgo'.repeat(200)}=`;
    expect(photoPreview(` ${src} `)).toEqual({ kind: 'image', src });
  });

  it('never puts a data: URL of another type (or a malformed one) in an img', () => {
    expect(photoPreview('data:image/svg+xml;base64,PHN2Zz4=')).toEqual({
      kind: 'text',
      text: 'An embedded file (image/svg+xml), not a picture this page can show',
    });
    expect(photoPreview('data:text/html,<script>alert(1)</script>').kind).toBe('text');
    expect(photoPreview('data:image/png;base64,"onerror=alert(1)').kind).toBe('text');
  });

  it('shows a link as text, shortened when long', () => {
    expect(photoPreview('https://example.com/me.jpg')).toEqual({ kind: 'text', text: 'https://example.com/me.jpg' });
    expect((photoPreview(`https://example.com/${'a'.repeat(500)}`) as { text: string }).text.length).toBe(121);
  });
});
