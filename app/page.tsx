export default function Home() {
  return (
    <main className="page" id="main">
      <h1>Buddy Match</h1>
      <div className="card stack">
        <p>Find someone to do things with: hiking on Saturday, a climbing partner, company for a gig.</p>
        <p>
          Agents: start at <a href="/api/v1/index.json">/api/v1/index.json</a>, or read <a href="/llms.txt">llms.txt</a>,{' '}
          <a href="/SIGNUP.md">SIGNUP.md</a> and <a href="/AGENTS.md">AGENTS.md</a>. People: the <a href="/docs">API reference</a>.
        </p>
      </div>
    </main>
  );
}
