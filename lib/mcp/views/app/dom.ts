// DOM and result helpers shared by the MCP Apps views (main.ts). Text goes in with
// textContent only: names and notes come from other people.
export type Json = Record<string, unknown>;
export type Result = { content?: Array<{ type: string; text?: string }>; isError?: boolean; _meta?: Json };

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child != null) node.append(child);
  return node;
}

export const words = (id: string) => id.replace(/_/g, ' ');
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/** The JSON the tool answered with: the first text block that parses as an object. */
export function resultJson(result: Result): Json | null {
  for (const block of result.content ?? []) {
    if (block.type !== 'text' || !block.text) continue;
    try {
      const value = JSON.parse(block.text);
      if (value && typeof value === 'object') return value as Json;
    } catch {}
  }
  return null;
}

export function errorText(result: Result): string {
  return result.content?.find((b) => b.type === 'text')?.text?.split('\n')[0] ?? 'Something went wrong';
}

export function status(text: string, isError = false): HTMLElement {
  return el('p', {
    className: isError ? 'status error' : 'status',
    textContent: text,
    role: isError ? 'alert' : 'status',
  });
}

export function avatar(user: Json): HTMLElement {
  const name = String(user.displayName ?? '');
  if (typeof user.photoURL === 'string' && user.photoURL)
    return el('img', { src: user.photoURL, alt: `Photo of ${firstName(name)}`, width: 64, height: 64 });
  return el('div', { className: 'ph', ariaHidden: 'true', textContent: firstName(name).charAt(0).toUpperCase() });
}

export function chips(ids: unknown, label: string): HTMLElement | null {
  if (!Array.isArray(ids) || ids.length === 0) return null;
  const list = el('ul', { className: 'chips' });
  list.setAttribute('aria-label', label);
  for (const id of ids) list.append(el('li', { textContent: words(String(id)) }));
  return list;
}
