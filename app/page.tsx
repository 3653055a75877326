export default function Home() {
  return (
    <main>
      <h1>Buddy Match</h1>
      <p>Find someone to do things with. Agents: start at <a href="/api/v1/index.json">/api/v1/index.json</a>.</p>
    </main>
  );
}
