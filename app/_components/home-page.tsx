import { config } from '@/lib/config';
import { EXAMPLE_PROMPTS } from '@/lib/guides/example-prompts';
import { ASSISTANTS, assistantPrompt, mcpUrl, startGuide } from '@/lib/web/start-guides';
import { breakable } from './breakable';

// The home page: what Buddy Match does, and three ways in (your assistant, this site,
// an MCP client). Rendered to static HTML by server/doors/home.tsx: nothing here needs JavaScript.
export function HomePage() {
  const baseUrl = config().publicBaseUrl;
  return (
    <div className="home stack">
      <section className="hero home-hero">
        <div className="stack">
          <h1>Buddy Match</h1>
          <p className="lead">
            Find someone to do things with: a hiking partner for Saturday, a climbing buddy, company for a gig. Your AI
            assistant can sign you up, find people who like what you like and are free when you are, and keep the
            conversation going. You can read and answer everything here.
          </p>
          <p className="actions">
            <a className="button" href="#assistant">
              Start with your assistant
            </a>
            <a className="button button-secondary" href="/signup">
              Sign up here
            </a>
            <a className="button button-secondary" href="/signin">
              Sign in
            </a>
          </p>
        </div>
        <HowItLooks />
      </section>

      <section className="card stack" aria-labelledby="assistant">
        <h2 id="assistant">Sign up through your assistant</h2>
        <p>
          Copy this into ChatGPT, Claude or any assistant, and change the wish to yours. It asks you for your details
          before it sends anything.
        </p>
        <figure className="copy-figure" aria-label="Prompt for your assistant">
          <pre className="copy-block">{breakable(assistantPrompt(baseUrl))}</pre>
        </figure>
        <p>Step by step for:</p>
        <ul className="start-links">
          {ASSISTANTS.map((assistant) => (
            <li key={assistant}>
              <a className="button button-secondary" href={`/start/${assistant}`}>
                {assistant === 'other' ? 'Other assistants' : startGuide(assistant, baseUrl).name}
              </a>
            </li>
          ))}
        </ul>
      </section>

      <div className="home-columns">
        <section className="card stack" aria-labelledby="no-assistant">
          <h2 id="no-assistant">No assistant?</h2>
          <p>Sign up on this site: the same plain-English form, in about a minute.</p>
          <p>
            <a className="button" href="/signup">
              Create an account
            </a>
          </p>
        </section>
        <section className="card stack" aria-labelledby="connect">
          <h2 id="connect">Connect an assistant as a tool</h2>
          <p>
            Add this as a custom connector (remote MCP server) in ChatGPT, Claude, Cursor or any MCP client. When it
            first acts for you, a Buddy Match page opens to sign you in, or create your account, and approve it: no
            token to copy.
          </p>
          <figure className="copy-figure" aria-label="MCP server URL">
            <pre className="copy-block">{breakable(mcpUrl(baseUrl))}</pre>
          </figure>
          <p>Then ask it, for example:</p>
          <ul className="example-prompts">
            {EXAMPLE_PROMPTS.map((example) => (
              <li key={example.prompt}>“{example.prompt}”</li>
            ))}
          </ul>
          <p className="small muted">
            Agents: <a href="/llms.txt">llms.txt</a>, <a href="/SIGNUP.md">SIGNUP.md</a>,{' '}
            <a href="/AGENTS.md">AGENTS.md</a> and <a href="/api/v1/index.json">/api/v1/index.json</a>. People: the{' '}
            <a href="/docs">API reference</a>.
          </p>
        </section>
      </div>
    </div>
  );
}

/** A picture of the app, in HTML: a Discover result and the chat it leads to. */
function HowItLooks() {
  return (
    <figure className="how-it-looks">
      <div className="mock-phone" aria-hidden="true">
        <div className="mock-card">
          <div className="mock-avatar">M</div>
          <div>
            <strong>Maya, 30s</strong>
            <div className="small">Portland · 3 km</div>
            <div className="chips">
              <span className="tag tag-ok">Hiking</span>
              <span className="tag">Coffee</span>
            </div>
            <div className="small">Free together: Saturday mornings</div>
          </div>
        </div>
        <div className="mock-chat">
          <p className="mock-bubble mock-them">Up for Forest Park on Saturday?</p>
          <p className="mock-bubble mock-me">Yes! 9am at the north trailhead?</p>
          <p className="mock-bubble mock-them">See you there!</p>
        </div>
      </div>
      <figcaption className="small muted">
        Discover shows people near you who share your activities and free time; a buddy request opens a chat.
      </figcaption>
    </figure>
  );
}
