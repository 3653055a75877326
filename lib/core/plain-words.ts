// Text as plain lowercase ASCII words joined by dashes ("Café & Crêpes" → "cafe-crepes"), for
// slugs and file names: accents dropped, anything else a separator, at most `max` characters.
export function plainWords(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
