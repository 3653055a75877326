import type { Metadata } from 'next';
import { Fragment } from 'react';
import { connection } from 'next/server';
import { config } from '@/lib/config';
import { endpoints, SCOPES, type EndpointSpec } from '@/lib/contract';
import { fieldRows, type FieldRow } from '@/lib/docs/json-schema';
import { errorCodesFor, SCOPE_DESCRIPTIONS } from '@/lib/docs/openapi';
import { ERROR_ADVICE, type ErrorCode } from '@/lib/core/errors';
import { ERROR_STATUS } from '@/lib/http/error-response';
import { isMcpTool } from '@/lib/contract/define';

export const metadata: Metadata = {
  title: 'API reference · Buddy Match',
  description:
    'Every endpoint of the Buddy Match API: parameters, bodies, responses and errors, generated from the contract.',
};

const anchor = (spec: EndpointSpec) => `op-${spec.id}`;

function FieldTable({ caption, rows }: { caption: string; rows: FieldRow[] }) {
  if (rows.length === 0) return null;
  return (
    <table className="table-fit">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Limits and notes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <td>
              <code>{row.name}</code>
              {row.required ? (
                <>
                  {' '}
                  <span className="tag">required</span>
                </>
              ) : null}
            </td>
            <td>{row.type}</td>
            <td>{row.notes}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ErrorList({ codes }: { codes: readonly ErrorCode[] }) {
  return (
    <table className="table-fit">
      <thead>
        <tr>
          <th scope="col">error.code</th>
          <th scope="col">Status</th>
          <th scope="col">What to do</th>
        </tr>
      </thead>
      <tbody>
        {codes.map((code) => (
          <tr key={code}>
            <td>
              <code>{code}</code>
            </td>
            <td>{ERROR_STATUS[code]}</td>
            <td>{ERROR_ADVICE[code]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A path that wraps after its slashes on a narrow screen rather than mid-word. */
function breakablePath(path: string) {
  const parts = path.split('/');
  const last = parts.length - 1;
  // "segment/" then <wbr>: no two text nodes touch, so the HTML keeps the path whole.
  return parts.map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a path's segments, fixed for the page's life
    <Fragment key={i}>
      {i < last ? `${part}/` : part}
      {i < last ? <wbr /> : null}
    </Fragment>
  ));
}

function Endpoint({ spec }: { spec: EndpointSpec }) {
  const toolName = isMcpTool(spec) ? spec.id : null;
  return (
    <section className="card stack" id={anchor(spec)} aria-labelledby={`${anchor(spec)}-h`}>
      <div>
        <h3 id={`${anchor(spec)}-h`}>
          <span className="tag">{spec.method}</span> <code>{breakablePath(spec.path)}</code>
        </h3>
        <p>
          <strong>{spec.summary}.</strong> {spec.description}
        </p>
        <p className="small muted">
          Auth:{' '}
          {spec.auth === 'none' ? (
            'none'
          ) : (
            <>
              bearer token with <code>{spec.auth}</code>
            </>
          )}{' '}
          · Success: {spec.status ?? 200} · operationId <code>{spec.id}</code>
          {toolName ? (
            <>
              {' '}
              · MCP tool <code>{toolName}</code>
            </>
          ) : null}
        </p>
      </div>
      {spec.params ? (
        <div>
          <h4>Path parameters</h4>
          <FieldTable caption="Path parameters" rows={fieldRows(spec.params)} />
        </div>
      ) : null}
      {spec.query ? (
        <div>
          <h4>Query parameters</h4>
          <FieldTable caption="Query parameters" rows={fieldRows(spec.query)} />
        </div>
      ) : null}
      {spec.body ? (
        <div>
          <h4>Request body{spec.bodyOptional ? ' (optional)' : ''}</h4>
          <FieldTable caption="Request body" rows={fieldRows(spec.body)} />
          {spec.requestExample !== undefined ? <pre>{JSON.stringify(spec.requestExample, null, 2)}</pre> : null}
        </div>
      ) : null}
      <div>
        <h4>Response ({spec.status ?? 200})</h4>
        <FieldTable caption="Response" rows={fieldRows(spec.response, 'output')} />
        {spec.example !== undefined ? <pre>{JSON.stringify(spec.example, null, 2)}</pre> : null}
      </div>
      <details>
        <summary>Errors</summary>
        <ErrorList codes={errorCodesFor(spec)} />
      </details>
    </section>
  );
}

// GET /docs – the API reference for people, rendered on the server from the contract
export default async function DocsPage() {
  await connection(); // render per request: links use the runtime PUBLIC_BASE_URL
  const baseUrl = config().publicBaseUrl;
  const tags = [...new Set(endpoints.flatMap((e) => e.tags))];
  return (
    <>
      <h1>API reference</h1>
      <p className="muted">
        Machine-readable: <a href="/.well-known/openapi.json">openapi.json</a>
      </p>
      <div className="card">
        <p>
          Base URL <code>{baseUrl}</code>. JSON in, JSON out. Generated from the same contract as the{' '}
          <a href="/.well-known/openapi.json">OpenAPI document</a>, the <a href="/.well-known/mcp.json">MCP tools</a>{' '}
          and the guides for agents: <a href="/SIGNUP.md">SIGNUP.md</a>, <a href="/AGENTS.md">AGENTS.md</a>,{' '}
          <a href="/llms.txt">llms.txt</a>.
        </p>
        <p>
          Authentication: <code>Authorization: Bearer &lt;token&gt;</code> with the token from{' '}
          <code>POST /api/v1/register.json</code>. Every error is{' '}
          <code>{'{"error":{"code","message","hint","fields"}}'}</code>.
        </p>
      </div>

      <nav className="card" aria-labelledby="toc-heading">
        <h2 id="toc-heading">Endpoints</h2>
        {tags.map((tag) => (
          <div key={tag}>
            <h3>{tag}</h3>
            <ul>
              {endpoints
                .filter((e) => e.tags[0] === tag)
                .map((e) => (
                  <li key={e.id}>
                    <a href={`#${anchor(e)}`}>
                      {e.method} {breakablePath(e.path)}
                    </a>{' '}
                    <span className="muted">– {e.summary}</span>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>

      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`}>{tag}</h2>
          {endpoints
            .filter((e) => e.tags[0] === tag)
            .map((spec) => (
              <Endpoint key={spec.id} spec={spec} />
            ))}
        </section>
      ))}

      <section className="card stack" aria-labelledby="scopes-heading">
        <h2 id="scopes-heading">Scopes</h2>
        <ul>
          {SCOPES.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>: {SCOPE_DESCRIPTIONS[scope]}
            </li>
          ))}
        </ul>
      </section>

      <section className="card stack" aria-labelledby="errors-heading">
        <h2 id="errors-heading">Error codes</h2>
        <ErrorList codes={Object.keys(ERROR_STATUS) as ErrorCode[]} />
      </section>
    </>
  );
}
