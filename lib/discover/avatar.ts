// Generated avatars for the demo population: initials on a coloured disc, drawn on
// request from the name in the URL, so a million demo profiles need no stored images.
const NAME = /^([A-Z]{1,2})-(\d{1,3})\.svg$/;

/** "MK-103.svg" → an SVG of "MK" on hue 103; null for anything else. */
export function demoAvatarSvg(name: string): string | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const initials = match[1]!;
  const hue = Number(match[2]) % 360;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">' +
    `<rect width="256" height="256" fill="hsl(${hue} 55% 52%)"/>` +
    '<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="104" ' +
    `font-weight="600" fill="#fff">${initials}</text></svg>`
  );
}
