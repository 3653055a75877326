import type { UnusedParam } from '@/lib/signup-link';

export function UnusedParamsNotice({ params }: { params: readonly UnusedParam[] }) {
  return (
    <section className="notice notice-warn" aria-labelledby="unused-heading" data-testid="unused-params">
      <h2 id="unused-heading">Not used from your assistant’s link</h2>
      <p>This page doesn’t know these details, so they will not be sent. Add them later if they matter:</p>
      <ul>
        {params.map(({ name, value }) => (
          <li key={`${name}=${value}`}>
            <strong>{name}</strong>
            {value ? `: ${value}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
