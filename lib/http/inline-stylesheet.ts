// app/globals.css as text, for the pages the node:http server renders itself (the home
// page, device sign-in): inlined with the CSP nonce, comments dropped. Every other page
// gets the same file from Next.js's bundle.
import fs from 'node:fs';
import path from 'node:path';

let stylesheet: string | undefined;

export function siteStylesheet(): string {
  stylesheet ??= fs
    .readFileSync(path.resolve(import.meta.dirname, '../../app/globals.css'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  return stylesheet;
}
