import type { Metadata } from 'next';
import { breakable } from '@/app/_components/breakable';
import { CopyButton } from '@/app/_components/copy-button';
import { notFound } from 'next/navigation';
import { config } from '@/lib/config';
import { ASSISTANTS, startGuide, type Assistant, type StartStep } from '@/lib/web/start-guides';

type Params = Promise<{ assistant: string }>;

const known = (value: string): value is Assistant => (ASSISTANTS as readonly string[]).includes(value);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { assistant } = await params;
  if (!known(assistant)) return {};
  return { title: `Start with ${startGuide(assistant, config().publicBaseUrl).name}` };
}

// GET /start/chatgpt | /start/claude | /start/other – the exact steps for one assistant
export default async function StartPage({ params }: { params: Params }) {
  const { assistant } = await params;
  if (!known(assistant)) notFound();
  const guide = startGuide(assistant, config().publicBaseUrl);
  return (
    <div className="narrow stack">
      <h1>Start with {guide.name}</h1>
      <p>{guide.intro}</p>
      <Steps steps={guide.steps} />
      {guide.advanced ? (
        <section className="card stack" aria-labelledby="advanced">
          <h2 id="advanced">{guide.advanced.title}</h2>
          <Steps steps={guide.advanced.steps} />
        </section>
      ) : null}
      {guide.developers ? (
        <details className="card">
          <summary>For developers</summary>
          <Steps steps={guide.developers} />
        </details>
      ) : null}
      <p className="muted">
        No assistant at hand? <a href="/signup">Sign up on this site</a>. Already a member?{' '}
        <a href="/signin">Sign in</a>.
      </p>
    </div>
  );
}

function copyLabel(text: string): string {
  if (/^https?:\/\/\S+$/.test(text)) return 'Copy the address';
  if (text.startsWith('claude ')) return 'Copy the command';
  return 'Copy the prompt';
}

function Steps({ steps }: { steps: StartStep[] }) {
  return (
    <ol className="steps">
      {steps.map((step) => (
        <li key={step.text}>
          <p>{step.text}</p>
          {step.copy ? (
            <>
              <pre className="copy-block">{breakable(step.copy)}</pre>
              <p className="actions">
                <CopyButton text={step.copy} label={copyLabel(step.copy)} />
                {step.openIn ? (
                  <a className="button" href={step.openIn.href} target="_blank" rel="noopener noreferrer">
                    {step.openIn.label}
                  </a>
                ) : null}
              </p>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
