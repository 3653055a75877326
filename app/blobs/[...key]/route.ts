import { getDb } from '@/db';
import { config } from '@/lib/config';
import { blobServingState, localBlobResponse } from '@/lib/photos/serve';
import { photoServicesFrom } from '@/lib/photos/services';

type Context = { params: Promise<{ key: string[] }> };

// GET /blobs/{key} – a locally stored photo or thumbnail (local storage driver only; Next answers HEAD from it)
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { key } = await params;
  return localBlobResponse(photoServicesFrom(config()).store, key.join('/'), request, (k) =>
    blobServingState(getDb(), k),
  );
}
