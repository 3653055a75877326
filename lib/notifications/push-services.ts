// The push services browsers subscribe to. A subscription endpoint is a URL the browser
// hands us and the server POSTs to (with 5 retries) for every notification, so any other
// host would let an account aim those requests at a site of its choosing (issue 28).

/** Chrome, Edge on Android, Opera, Brave, Samsung Internet: FCM; then Firefox, Safari, Edge on Windows. */
export const KNOWN_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
] as const;

/** True when `hostname` is one of `patterns`: an exact name, or `*.suffix` for any name under it. */
export function isAllowedPushHost(hostname: string, patterns: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) => {
    const wanted = pattern.toLowerCase();
    return wanted.startsWith('*.') ? host.endsWith(wanted.slice(1)) : host === wanted;
  });
}
