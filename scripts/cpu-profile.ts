// Reading a V8 .cpuprofile (node --cpu-prof) into shares, for scripts/cpu-profile-summary.ts.

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, by its script URL (packages by name; our server bundle by its file). */
export function whereOf(frame: { functionName: string; url: string }): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return '(program)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] === 'next' || pkg[1]!.startsWith('@next') ? 'next' : pkg[1]!;
  if (url.includes('/.next/server/')) return 'next build (app chunks)';
  if (url.includes('/.next/server-process/')) return 'our server bundle';
  if (url.startsWith('node:') || url === '') return 'node (internals, natives)';
  return 'other';
}

/** The parts of the request path, by a function on the stack (the first that matches wins, innermost first). */
export const REQUEST_PARTS: readonly [string, RegExp][] = [
  ['token lookup (findTokenOwner)', /^findTokenOwner$/],
  ['zod validation (parseOrThrow)', /^(parseOrThrow|collectNormalizations)$/],
  ['logging (logLine)', /^logLine$/],
  ['JSON.stringify', /^stringify$/],
  ['pg protocol', /^(handleDataRow|parse|handlePacket|submit|query)$/],
  ['Next.js router (handleRequest)', /^(handleRequest|handleRequestImpl|requestHandlerImpl)$/],
  ['Next.js route module (AppRouteRouteModule)', /^(handle|do|execute)$/],
  ['proxy.ts (middleware)', /^(proxy|runMiddleware|adapter)$/],
  [
    'the doors before Next (server/doors)',
    /^(answerApiFrontDoor|answerOauth|answerHomePage|answerBadRequestTarget|directRoute|parkUnchangedInboxPoll)$/,
  ],
  ['our route wrapper (route())', /^route$/],
];

function parents(profile: CpuProfile): Map<number, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return parent;
}

function busySamples(profile: CpuProfile): { node: number; weight: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  return profile.samples
    .map((node, i) => ({ node, weight: profile.timeDeltas[i] ?? 0 }))
    .filter(({ node }) => byId.get(node)?.callFrame.functionName !== '(idle)');
}

/** Self time by where the code lives, largest first, as shares of busy time. */
export function selfShares(profile: CpuProfile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let all = 0;
  for (const { node, weight } of busySamples(profile)) {
    const where = whereOf(byId.get(node)!.callFrame);
    totals.set(where, (totals.get(where) ?? 0) + weight);
    all += weight;
  }
  return [...totals].map(([k, v]): [string, number] => [k, v / all]).sort((a, b) => b[1] - a[1]);
}

/**
 * Inclusive time of each request part: a sample counts for a part when a frame on its
 * stack matches it. Each part is counted on its own (they nest, so shares overlap).
 */
export function inclusiveShares(
  profile: CpuProfile,
  parts: readonly [string, RegExp][] = REQUEST_PARTS,
): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = parents(profile);
  const totals = new Map<string, number>(parts.map(([name]) => [name, 0]));
  let all = 0;
  for (const { node, weight } of busySamples(profile)) {
    all += weight;
    const seen = new Set<string>();
    for (let id: number | undefined = node; id !== undefined; id = parent.get(id)) {
      const name = byId.get(id)!.callFrame.functionName;
      for (const [part, pattern] of parts) {
        if (!seen.has(part) && pattern.test(name)) {
          seen.add(part);
          totals.set(part, totals.get(part)! + weight);
        }
      }
    }
  }
  return [...totals].map(([k, v]): [string, number] => [k, v / all]);
}
