// Reads a fetch response body without ever holding more than `limit` bytes of it.
export async function readTextLimited(response: Response, limit: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge();
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
