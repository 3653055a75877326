// Renders the app icons from app/icon.svg (run once when the icon changes; the outputs
// are committed): PNGs for the web app manifest and Apple devices, and favicon.ico for
// browsers that ask for /favicon.ico whatever the page says (an ICO may hold PNGs).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const svg = fs.readFileSync(path.join(root, 'app/icon.svg'));
const png = (size: number) => sharp(svg, { density: 384 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

/** An ICO file of PNG images (ICONDIR, one ICONDIRENTRY per image, then the images). */
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

for (const size of [192, 512]) fs.writeFileSync(path.join(root, `public/icons/icon-${size}.png`), await png(size));
fs.writeFileSync(path.join(root, 'app/apple-icon.png'), await png(180));
fs.writeFileSync(
  path.join(root, 'app/favicon.ico'),
  ico([
    { size: 32, data: await png(32) },
    { size: 16, data: await png(16) },
  ]),
);
process.stdout.write('icons written\n');
