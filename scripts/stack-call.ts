// The JSON calls the picture scripts make to a throwaway stack: each from a new client address,
// so the registration limit never stops a script that signs up several people.
export type Registered = { user: { slug: string; email: string }; auth: { token: string } };

export function stackCaller(baseUrl: string) {
  let address = 0;
  return async function call<T>(method: string, urlPath: string, body: unknown, token?: string): Promise<T> {
    address += 1;
    const res = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.9.0.${address}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}
