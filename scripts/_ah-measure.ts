import { endpoints } from '@/lib/contract';
import { buildOpenApi } from '@/lib/docs/openapi';
const t = Date.now();
const doc = buildOpenApi(endpoints, 'http://localhost:3000') as any;
const ms = Date.now() - t;
const size = (x: unknown) => Buffer.byteLength(JSON.stringify(x) ?? "");
console.log('ms', ms, 'compact', size(doc), 'pretty', Buffer.byteLength(JSON.stringify(doc, null, 2)));
let params = 0, req = 0, resp = 0, errs = 0, examples = 0, desc = 0;
for (const m of Object.values(doc.paths) as any[]) for (const op of Object.values(m) as any[]) {
  params += size(op.parameters ?? []);
  req += size(op.requestBody ?? {});
  for (const [st, r] of Object.entries(op.responses) as any) { if (+st >= 400) errs += size(r); else resp += size(r); }
  desc += size(op.description);
}
console.log({ params, req, resp, errs, desc, components: size(doc.components) });
for (const [k, v] of Object.entries(doc.components)) console.log('component', k, size(v), Object.keys(v as object).length);
const ex = [] as [string, number][];
for (const [p, m] of Object.entries(doc.paths) as any) for (const [meth, op] of Object.entries(m) as any) {
  const r = op.responses[Object.keys(op.responses)[0]];
  const media = r.content?.['application/json'];
  ex.push([meth + ' ' + p, size(media?.example ?? null)]);
  ex.push(['req ' + p, size(op.requestBody?.content['application/json'].example ?? null)]);
}
ex.sort((a, b) => b[1] - a[1]); console.log('examples total', ex.reduce((a, b) => a + b[1], 0), ex.slice(0, 8));
console.log(Object.keys(doc.components.schemas).join(' '));
console.log(Object.keys(doc.components.responses).length, 'responses', Object.keys(doc.components.responses).slice(0,40).join('\n'));
