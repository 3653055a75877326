// Polls until `check` returns a value other than undefined (background jobs finish
// asynchronously); fails with the last value seen.
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 150, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
