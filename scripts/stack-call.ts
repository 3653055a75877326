// What the picture scripts share: their JSON calls to a throwaway stack, each from a new client
// address so the registration limit never stops a script that signs up several people, and the
// portraits they give those people.
import sharp from 'sharp';

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

/** A 640 px JPEG portrait stand-in: a disc of colour with an initial. */
export function portrait(initial: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640">
    <rect width="640" height="640" fill="hsl(${hue},45%,88%)"/>
    <circle cx="320" cy="260" r="130" fill="hsl(${hue},40%,55%)"/>
    <rect x="130" y="420" width="380" height="260" rx="190" fill="hsl(${hue},40%,45%)"/>
    <text x="320" y="300" font-family="sans-serif" font-size="120" text-anchor="middle" fill="#fff">${initial}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
