import { config } from '@/lib/config';
import { localBlobResponse } from '@/lib/photos/serve';
import { photoServicesFrom } from '@/lib/photos/services';

type Context = { params: Promise<{ key: string[] }> };

// GET /blobs/{key} – a locally stored photo or thumbnail (local storage driver only)
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const { key } = await params;
  return localBlobResponse(photoServicesFrom(config()).store, key.join('/'), 'GET');
}

// HEAD /blobs/{key} – the same headers without the body
export async function HEAD(_request: Request, { params }: Context): Promise<Response> {
  const { key } = await params;
  return localBlobResponse(photoServicesFrom(config()).store, key.join('/'), 'HEAD');
}
