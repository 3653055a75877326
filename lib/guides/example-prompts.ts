// What a person can say to an assistant that has Buddy Match connected, each with the tools it
// takes, in order. Shown on the home page, in AGENTS.md and in the MCP manifest (app directories ask
// for three or more); e2e/api/example-prompts.test.ts makes exactly these calls through the MCP SDK
// and fails on a prompt whose calls do not succeed.

export interface ExamplePrompt {
  /** In the person's words. */
  prompt: string;
  /** The MCP tools an assistant calls for it, in order. */
  tools: readonly string[];
}

export const EXAMPLE_PROMPTS: readonly ExamplePrompt[] = [
  {
    prompt: 'Sign me up for Buddy Match: I want a hiking partner near Lisbon for Saturday mornings.',
    tools: ['register'],
  },
  {
    prompt: 'Find me someone nearby to go bouldering with, and ask them.',
    tools: ['discover', 'send_buddy_request'],
  },
  {
    prompt: 'Anything new on Buddy Match? Tell Ana that Saturday works for me.',
    tools: ['get_inbox', 'send_message'],
  },
  {
    prompt: 'Plan a run with Sam this week, somewhere public.',
    tools: ['list_chats', 'plan_options', 'propose_plan'],
  },
  {
    prompt: 'Is there a board games meetup near me I could join?',
    tools: ['find_meetups', 'join_meetup'],
  },
];
