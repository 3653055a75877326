import { describe, expect, it } from 'vitest';
import { loadConfig as load } from './config';

const loadConfig = (vars: Record<string, string>) => load(vars as NodeJS.ProcessEnv);

describe('photo and moderation settings', () => {
  it('defaults to local storage, the local provider and no loopback allowance', () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({
      blobReadWriteToken: undefined,
      moderationProvider: 'local',
      googleVisionEndpoint: 'https://vision.googleapis.com/v1/images:annotate',
      photoFetchAllowLoopbackPorts: [],
    });
  });

  it('reads the Vercel token, google-vision and the test-only ports', () => {
    const cfg = loadConfig({
      BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_x_y',
      MODERATION_PROVIDER: 'google-vision',
      GOOGLE_VISION_API_KEY: 'k',
      GOOGLE_VISION_ENDPOINT: 'http://127.0.0.1:9/v1/images:annotate',
      PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '4010, 4011',
    });
    expect(cfg).toMatchObject({
      blobReadWriteToken: 'vercel_blob_rw_x_y',
      moderationProvider: 'google-vision',
      googleVisionApiKey: 'k',
      googleVisionEndpoint: 'http://127.0.0.1:9/v1/images:annotate',
      photoFetchAllowLoopbackPorts: [4010, 4011],
    });
  });

  it.each([
    [{ MODERATION_PROVIDER: 'rekognition' }, /MODERATION_PROVIDER/],
    [{ MODERATION_PROVIDER: 'google-vision' }, /GOOGLE_VISION_API_KEY/],
    [{ PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '80,x' }, /PHOTO_FETCH_ALLOW_LOOPBACK_PORTS/],
    [{ PHOTO_FETCH_ALLOW_LOOPBACK_PORTS: '70000' }, /PHOTO_FETCH_ALLOW_LOOPBACK_PORTS/],
  ])('refuses %j at startup', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
