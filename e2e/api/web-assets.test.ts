// The installable web app's assets over HTTP: the favicon, the manifest and every icon it names
// (moved from the browser tests: nothing here needs a browser).
import { describe, expect, it } from 'vitest';
import { baseUrl } from './client';

describe('the favicon, the icons and the manifest', () => {
  it('are served: an ICO favicon, a manifest for an app that opens on /account, and each of its icons as an image', async () => {
    const favicon = await fetch(`${baseUrl()}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(Buffer.from(await favicon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));

    const manifest = await fetch(`${baseUrl()}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    const body = (await manifest.json()) as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string }[];
    };
    expect(body).toMatchObject({
      name: 'Buddy Match',
      start_url: '/account',
      display: 'standalone',
      theme_color: '#0b57a4',
    });
    expect(body.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of body.icons) {
      const res = await fetch(`${baseUrl()}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type'), icon.src).toMatch(/^image\//);
    }
  });
});
