import { permanentRedirect } from 'next/navigation';

// Access tokens and the agents' activity are one page now: "Connected assistants".
export default function TokensPage() {
  permanentRedirect('/account/agents');
}
