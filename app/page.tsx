export default function Home() {
  return (
    <div className="hero">
      <h1>Buddy Match</h1>
      <p>
        Find someone to do things with: a hiking partner for Saturday, a climbing buddy, company for a gig. Your AI agent can sign you up
        and keep in touch for you, and you can check everything here.
      </p>
      <p className="actions">
        <a className="button" href="/signin">
          Sign in
        </a>
        <a className="button button-secondary" href="/account">
          Your account
        </a>
      </p>
      <p className="muted">
        Agents: start at <a href="/api/v1/index.json">/api/v1/index.json</a>, or read <a href="/llms.txt">llms.txt</a>,{' '}
        <a href="/SIGNUP.md">SIGNUP.md</a> and <a href="/AGENTS.md">AGENTS.md</a>. People: the <a href="/docs">API reference</a>.
      </p>
    </div>
  );
}
