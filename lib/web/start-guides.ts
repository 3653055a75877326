// What the home page and the /start/<assistant> pages tell a person: the prompt to give
// their own assistant and the exact steps for each kind of assistant. Only paths that
// work today are described: a chat assistant that cannot send requests builds the
// /signup-with-ai link (SIGNUP.md's browser fallback); an assistant that takes custom
// connectors (MCP with OAuth) connects to /api/mcp and signs the person in on our page;
// a client that takes MCP servers with headers connects with the token.

export const ASSISTANTS = ['chatgpt', 'claude', 'other'] as const;
export type Assistant = (typeof ASSISTANTS)[number];

export interface StartStep {
  text: string;
  /** Something to copy (a prompt, a URL, a command), shown as code. */
  copy?: string;
  /** A link that opens the assistant with `copy` already typed in, where it takes one. */
  openIn?: { label: string; href: string };
}

export interface StartGuide {
  name: string;
  intro: string;
  steps: StartStep[];
  /** For people who set up tools themselves. */
  advanced?: { title: string; steps: StartStep[] };
  /** Commands and raw addresses, collapsed under "For developers". */
  developers?: StartStep[];
}

/**
 * The assistants' own "new chat with this text typed in" addresses. Claude documents
 * claude.ai/new?q= (support.claude.com/en/articles/14729294, its desktop link mirrors the
 * web address); chatgpt.com/?q= is the form "Open in ChatGPT" buttons use. Either way the
 * person still reads the prompt and presses send.
 */
export function prefilledChatUrl(assistant: 'chatgpt' | 'claude', prompt: string): string {
  const base = assistant === 'chatgpt' ? 'https://chatgpt.com/' : 'https://claude.ai/new';
  return `${base}?${new URLSearchParams({ q: prompt })}`;
}

export function assistantPrompt(baseUrl: string, wish = 'find someone to go hiking with on Saturday mornings'): string {
  return (
    `Sign me up for Buddy Match at ${baseUrl} (read ${baseUrl}/llms.txt first). I'd like to ${wish}. ` +
    'Ask me for my email, my name and anything else you need before you send anything.'
  );
}

export const mcpUrl = (baseUrl: string) => `${baseUrl}/api/mcp`;

const chatSteps = (baseUrl: string, assistant: 'chatgpt' | 'claude', product: string): StartStep[] => [
  {
    text: `Open a new chat in ${product} and paste this, changing the wish to yours:`,
    copy: assistantPrompt(baseUrl),
    openIn: {
      label: `Open ${product} with this typed in`,
      href: prefilledChatUrl(assistant, assistantPrompt(baseUrl)),
    },
  },
  {
    text:
      `${product} asks for your details, then gives you a link to a Buddy Match page with them filled in (in a normal chat it cannot ` +
      'create the account itself). Open the link, check the details and press "Create my account".',
  },
  { text: 'Save the password the page shows, and open the sign-in link on your phone: it signs you in here.' },
  {
    text: `Come back to ${product} whenever you want help: it can draft messages and read Buddy Match's guides for you.`,
  },
];

/** A connector (remote MCP server with OAuth): no token to copy, the person signs in on our page. */
const connectorSteps = (baseUrl: string, product: string): StartStep[] => [
  {
    text: `Where ${product} lets you add a custom connector (a remote MCP server), add this URL:`,
    copy: mcpUrl(baseUrl),
  },
  {
    text: `When ${product} first acts for you, a Buddy Match page opens: sign in, or create your account there, and press Allow. You can disconnect it any time in Settings, under Connected assistants.`,
  },
];

export function startGuide(assistant: Assistant, baseUrl: string): StartGuide {
  switch (assistant) {
    case 'chatgpt':
      return {
        name: 'ChatGPT',
        intro:
          'ChatGPT reads the Buddy Match instructions and prepares your signup; you check it and create the account with one button.',
        steps: chatSteps(baseUrl, 'chatgpt', 'ChatGPT'),
        advanced: { title: 'Let ChatGPT act for you: connect Buddy Match', steps: connectorSteps(baseUrl, 'ChatGPT') },
      };
    case 'claude':
      return {
        name: 'Claude',
        intro:
          'Claude reads the Buddy Match instructions and prepares your signup; you check it and create the account with one button.',
        steps: chatSteps(baseUrl, 'claude', 'Claude'),
        advanced: { title: 'Let Claude act for you: connect Buddy Match', steps: connectorSteps(baseUrl, 'Claude') },
        developers: [
          {
            text: 'Claude Code: add the server, and sign in when a Buddy Match page opens (or sign up through the register tool first and add the token).',
          },
          {
            text: 'Add the Buddy Match MCP server:',
            copy: `claude mcp add --transport http buddy-match ${mcpUrl(baseUrl)}`,
          },
          {
            text: 'Ask Claude to sign you up: the register tool needs no token. It answers with your token (auth.token).',
          },
          {
            text: 'Add the server again with the token, so Claude can act for you (profile, Discover, requests, chats):',
            copy: `claude mcp add --transport http buddy-match ${mcpUrl(baseUrl)} --header "Authorization: Bearer <auth.token>"`,
          },
        ],
      };
    case 'other':
      return {
        name: 'another assistant',
        intro:
          'Any assistant that can read a web page can sign you up; one that can send web requests or use MCP tools can act for you afterwards.',
        steps: [
          { text: 'Give your assistant this, changing the wish to yours:', copy: assistantPrompt(baseUrl) },
          {
            text: 'If it can send web requests, it creates the account itself. If it cannot, it gives you a link: open it, check the details and press "Create my account".',
          },
          { text: 'Save the password and open the sign-in link it shows.' },
        ],
        developers: [
          {
            text: 'MCP server (Streamable HTTP). The register tool needs no token. Clients with OAuth sign the person in by themselves; others send Authorization: Bearer <auth.token>, or use device sign-in (AGENTS.md, "Connecting").',
            copy: mcpUrl(baseUrl),
          },
          {
            text: 'HTTP agents: the six calls from signup to a first message are at the top of',
            copy: `${baseUrl}/llms.txt`,
          },
        ],
      };
  }
}
