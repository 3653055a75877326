import { describe, expect, it } from 'vitest';
import { demoAvatarSvg } from './avatar';

describe('demoAvatarSvg', () => {
  it('draws the initials on the hue from the name', () => {
    const svg = demoAvatarSvg('MK-103.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('>MK</text>');
    expect(svg).toContain('hsl(103 55% 52%)');
  });

  it.each(['mk-1.svg', 'MK-1.png', 'M<script>-1.svg', 'ABC-1.svg', 'MK-1000.svg', '../x'])('refuses %s', (name) => {
    expect(demoAvatarSvg(name)).toBeNull();
  });
});
