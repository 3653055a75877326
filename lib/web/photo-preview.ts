// How the signup review shows the photo an assistant prepared: a data: URL of an image is
// shown as the picture it is (2 KB of base64 helps nobody check it); anything else as text.
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+=*$/;
const SHOWN_TEXT = 120;

export type PhotoPreview = { kind: 'image'; src: string } | { kind: 'text'; text: string };

export function photoPreview(photo: string): PhotoPreview {
  const value = photo.trim();
  if (IMAGE_DATA_URL.test(value)) return { kind: 'image', src: value };
  if (value.startsWith('data:')) {
    const type = value.slice(5, value.search(/[;,]/) > 0 ? value.search(/[;,]/) : 5) || 'unknown type';
    return { kind: 'text', text: `An embedded file (${type}), not a picture this page can show` };
  }
  return { kind: 'text', text: value.length > SHOWN_TEXT ? `${value.slice(0, SHOWN_TEXT)}…` : value };
}
