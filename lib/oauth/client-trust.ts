// Who an OAuth client is, as far as this server can tell (issue 28, phishing through
// device sign-in). A client's name is whatever its registration said, so a name proves
// nothing: "Buddy Match Safety Check" or "Claude" can be registered by anyone. What we can check
// is where a host is: the host that serves a client ID metadata document (the client_id is its
// URL), or, for a registered client, the https host this authorization returns to (issue 46 §2:
// every dynamically registered Claude was marked unverified in red). The code goes only to the
// redirect URI the client registered and this request names, so whoever sits at a known
// assistant's host is the one who receives it: an impostor naming Claude's callback gets nothing.

/** Hosts (and their subdomains) whose metadata documents are the assistants they name. */
const KNOWN_ASSISTANT_HOSTS: ReadonlyArray<{ host: string; name: string }> = [
  { host: 'claude.ai', name: 'Claude' },
  { host: 'anthropic.com', name: 'Claude' },
  { host: 'chatgpt.com', name: 'ChatGPT' },
  { host: 'openai.com', name: 'ChatGPT' },
  { host: 'gemini.google.com', name: 'Gemini' },
  { host: 'copilot.microsoft.com', name: 'Copilot' },
  { host: 'github.com', name: 'GitHub Copilot' },
];

/** Cyrillic and Greek letters that look like Latin ones. */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [...'аеорсухіјԁһкмтвпАЕОРСУХІЈНКМТВαεοκτιρνυχΑΕΟΚΤΙΡΝΥΧ'].map((c, i) => [
    c,
    'aeopcyxijdhkmtbnaeopcyxijhkmtbaeoktipvyxaeoktipnyx'[i]!,
  ]),
);

/**
 * A name reduced to what a reader sees: compatibility forms folded (full-width, ligatures),
 * accents, spacing and punctuation dropped, lookalike letters and digits read as the Latin
 * letters they pass for, and i and l as one letter, so "B.u.d.d.y-M4tch", "Ｃｌａｕｄｅ",
 * "CIaude" and "Сlaude" (Cyrillic С) all read as the real thing.
 */
export function readableName(name: string): string {
  return [...name.normalize('NFKD').replace(/\p{M}/gu, '')]
    .map((c) => LOOKALIKES[c] ?? c)
    .join('')
    .toLowerCase()
    .replace(/0/g, 'o')
    .replace(/[1|!i]/g, 'l')
    .replace(/3/g, 'e')
    .replace(/4|@/g, 'a')
    .replace(/5|\$/g, 's')
    .replace(/7/g, 't')
    .replace(/[^a-z]/g, '');
}

/** Words a name of this service would contain. */
const SERVICE_WORDS = ['buddymatch'].map(readableName);
/** Well-known assistants and their makers ("gpt" is checked apart: it is inside other words). */
const ASSISTANT_WORDS = ['chatgpt', 'openai', 'claude', 'anthropic', 'gemini', 'bard', 'copilot'].map(readableName);

/** True when the name passes for this service ("Buddy Match Safety Check"): refused at registration. */
export function imitatesService(name: string): boolean {
  const readable = readableName(name);
  return SERVICE_WORDS.some((word) => readable.includes(word));
}

/** True when the name claims a well-known assistant or its maker. */
export function claimsKnownAssistant(name: string): boolean {
  const readable = readableName(name);
  return ASSISTANT_WORDS.some((word) => readable.includes(word)) || /^gpt/.test(readable);
}

export type ClientTrust =
  /** A client ID metadata document served by a known assistant's host, or a return to one. */
  | { verified: true; assistant: string; host: string; by: 'metadata' | 'redirect' }
  /** Anything else: a registered client, a document on another host, device sign-in. */
  | { verified: false; host: string | null; claimsAssistant: boolean };

function knownAssistantOf(host: string): string | null {
  const lower = host.toLowerCase();
  return KNOWN_ASSISTANT_HOSTS.find((known) => lower === known.host || lower.endsWith(`.${known.host}`))?.name ?? null;
}

/** The https host of a URL (with `needsPath`, only a URL naming a document), or null. */
function httpsHost(value: string | undefined, needsPath = false): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && (!needsPath || url.pathname.length > 1) ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * What the consent pages say about a client: verified by its metadata document's https host, or
 * by the https host of the redirect URI this authorization returns to; never by its name.
 */
export function clientTrust(clientId: string, clientName: string, redirectUri?: string): ClientTrust {
  // A metadata document's client_id is its https URL; a registered client's id is not a URL.
  const host = httpsHost(clientId, true);
  const assistant = host ? knownAssistantOf(host) : null;
  if (host && assistant) return { verified: true, assistant, host, by: 'metadata' };
  const returnHost = httpsHost(redirectUri);
  const returnsTo = returnHost ? knownAssistantOf(returnHost) : null;
  if (returnHost && returnsTo) return { verified: true, assistant: returnsTo, host: returnHost, by: 'redirect' };
  return { verified: false, host, claimsAssistant: claimsKnownAssistant(clientName) || imitatesService(clientName) };
}
