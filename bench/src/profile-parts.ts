import { ROOT } from './processes.ts';

/** A V8 `.cpuprofile` (the inspector's `Profiler.stop`), the parts this reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string };
    hitCount?: number;
    children?: number[];
  }>;
}

type ProfileNode = CpuProfile['nodes'][number];

/**
 * What kind of work a sample's innermost frame did. `SQLite` is better-sqlite3's native statement calls, `crypto`
 * Node's (HMACs, hashes), `SDK JS` the braintree SDK's code and its XML parser, `own JS` this repository's code itself.
 */
export type Kind =
  | 'SQLite'
  | 'Kysely'
  | 'zod'
  | 'Fastify'
  | 'pino'
  | 'metrics'
  | 'crypto'
  | 'SDK JS'
  | 'own JS'
  | 'Node, other'
  | 'GC'
  | 'V8, other';

/** Which part of a payment's work a sample is for, from the stack (rules in `partOf`), and which kind of work it did. */
export interface PartsBreakdown {
  /** Samples with the thread busy (all but `(idle)`). */
  busySamples: number;
  /** Busy samples by part, then by kind. */
  parts: Array<{ part: string; samples: number; byKind: Partial<Record<Kind, number>> }>;
  /** The database's work (SQLite, Kysely, `db/`) by the innermost function of ours outside `db/`: the statements' callers. */
  statements: Array<{ caller: string; samples: number; sqlite: number }>;
}

const packageOf = (url: string): string | null => {
  const at = url.lastIndexOf('/node_modules/');
  if (at === -1) return null;
  const [scope, name] = url.slice(at + 14).split('/');
  return scope?.startsWith('@') === true ? `${scope}/${name}` : (scope ?? null);
};

/** The SDK and what it alone uses (its XML parser, Node's HTTP client and zlib): none of it is Kassa's code. */
const SDK_PACKAGES = new Set(['braintree', '@braintree/wrap-promise', 'xml2js', 'sax', 'xmlbuilder', 'dateformat']);
// With `inject` the server has no socket: every client socket, HTTP client and zlib stream in the process is the SDK's.
const SDK_NODE = /^node:(zlib|_http_client|_http_agent|_http_common|net|internal\/stream_base_commons)/;
const FASTIFY_PACKAGES =
  /^(fastify|@fastify\/.*|find-my-way|light-my-request|avvio|fast-json-stringify|fast-querystring|toad-cache|proxy-addr|forwarded|ipaddr\.js|cookie|fastify-plugin|process-warning|abstract-logging|rfdc|content-type|secure-json-parse|ret|safe-regex2|fast-decode-uri-component|set-cookie-parser|helmet)$/;
const PINO_PACKAGES =
  /^(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|@pinojs\/.*|quick-format-unescaped|atomic-sleep|on-exit-leak-free|fast-safe-stringify|safe-stable-stringify)$/;
const METRICS_PACKAGES = /^(prom-client|fastify-metrics|tdigest|bintrees)$/;
const SQLITE_CALLS = new Set(['run', 'all', 'get', 'iterate', 'exec', 'prepare', 'pragma']);

const ownPath = (url: string): string | null =>
  url.startsWith(`file://${ROOT}/`) && !url.includes('/node_modules/') ? url.slice(ROOT.length + 8) : null;

/** Our files by the part of a payment they serve (first match), as the breakdown names it. */
const OWN_PARTS: Array<[RegExp, string]> = [
  [/server\/src\/(plugins\/sessions|accounts\/sessions\.repository)\.ts$/, 'session look-up'],
  [/server\/src\/plugins\/rate-limit/, 'rate limit'],
  [/server\/src\/(plugins\/idempotency|payments\/idempotency\.repository)\.ts$/, 'Idempotency-Key claim and answer'],
  [/server\/src\/botcheck\//, 'bot-check verification and spend'],
  [/server\/src\/velocity\//, 'velocity rules'],
  [/server\/src\/(payments|orders|routes\/payments|webhooks)\//, 'payment use-case (order, attempt, outcome, answer)'],
  [/server\/src\/gateway\//, 'gateway adapters (ours, around the SDK)'],
  [/server\/src\/(metrics\/|plugins\/metrics)/, 'metrics'],
  [/server\/src\/logger\.ts$/, 'logging'],
  [/server\/src\/db\//, 'database layer (no caller of ours above it)'],
  [/server\/src\/(plugins|http)\/|server\/src\/app\.ts$/, 'hooks and error mapping'],
];

function kindOf(node: ProfileNode, parent: ProfileNode | undefined): Kind {
  const { functionName, url } = node.callFrame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName.startsWith('(')) return 'V8, other';
    const parentUrl = parent?.callFrame.url ?? '';
    if (SQLITE_CALLS.has(functionName) && (parentUrl.includes('/db/') || packageOf(parentUrl) !== null)) return 'SQLite';
    if (parentUrl.startsWith('node:internal/crypto')) return 'crypto';
    return 'Node, other';
  }
  if (url.startsWith('node:internal/crypto') || url === 'node:crypto') return 'crypto';
  if (url.startsWith('node:')) return 'Node, other';
  const pkg = packageOf(url);
  if (pkg === null) return ownPath(url) === null ? 'Node, other' : 'own JS';
  if (SDK_PACKAGES.has(pkg)) return 'SDK JS';
  if (pkg === 'kysely') return 'Kysely';
  if (pkg === 'zod' || pkg === 'fastify-type-provider-zod') return 'zod';
  if (FASTIFY_PACKAGES.test(pkg)) return 'Fastify';
  if (PINO_PACKAGES.test(pkg)) return 'pino';
  if (METRICS_PACKAGES.test(pkg)) return 'metrics';
  return 'Node, other';
}

/** The part a sample belongs to, read from its stack (leaf first). */
function partOf(stack: ProfileNode[], kind: Kind): string {
  if (kind === 'GC') return 'garbage collector';
  if (kind === 'V8, other') return 'V8, other (compiling, runtime)';
  const sdk = stack.some((node) => {
    const { url } = node.callFrame;
    const pkg = packageOf(url);
    return (pkg !== null && SDK_PACKAGES.has(pkg)) || SDK_NODE.test(url);
  });
  if (sdk) {
    const caller = stack.map((node) => ownPath(node.callFrame.url)).find((path) => path?.includes('/gateway/') === true);
    if (caller?.endsWith('braintree-card-lookup.ts') === true) return 'SDK: card look-up (paymentMethodNonce.find)';
    if (caller?.endsWith('braintree.ts') === true) return 'SDK: sale';
    return 'SDK: its answers (no caller of ours)';
  }
  // The innermost file of ours outside db/ says what the work was for (db/ runs every part's statements).
  const paths = stack.map((node) => ownPath(node.callFrame.url)).filter((path) => path !== null);
  const path = paths.find((own) => !own.includes('server/src/db/')) ?? paths[0];
  if (path !== undefined) return OWN_PARTS.find(([pattern]) => pattern.test(path))?.[1] ?? path;
  switch (kind) {
    case 'zod':
      return 'schemas outside our calls (zod: the body parse, the answer serialized)';
    case 'Fastify':
      return 'Fastify (routing, hooks, inject) outside our calls';
    case 'pino':
      return 'logging';
    case 'metrics':
      return 'metrics';
    default:
      return 'Node outside our calls (promises, timers, microtasks)';
  }
}

/**
 * The innermost function of ours outside `db/` on a stack: what a statement ran for; else the outermost of `db/`'s (a
 * transaction's COMMIT, resumed after its body's last `await`, has no caller above it).
 */
function statementCaller(stack: ProfileNode[]): string {
  const own = stack.flatMap((node) => {
    const path = ownPath(node.callFrame.url);
    return path === null
      ? []
      : [`${node.callFrame.functionName || '(anonymous)'} ${path.replace(/^packages\/server\/src\//, '')}`];
  });
  return own.find((name) => !name.includes(' db/')) ?? own.at(-1) ?? '(no caller of ours)';
}

/** Splits a profile's busy samples into the parts of a payment's work and the kinds of work within each. */
export function partsOfProfile(profile: CpuProfile): PartsBreakdown {
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const parts = new Map<string, { samples: number; byKind: Partial<Record<Kind, number>> }>();
  const statements = new Map<string, { samples: number; sqlite: number }>();
  let busySamples = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    busySamples += hits;
    const stack: ProfileNode[] = [];
    for (let at: ProfileNode | undefined = node; at !== undefined; at = parents.get(at.id)) stack.push(at);
    const kind = kindOf(node, stack[1]);
    const part = partOf(stack, kind);
    const entry = parts.get(part) ?? { samples: 0, byKind: {} };
    entry.samples += hits;
    entry.byKind[kind] = (entry.byKind[kind] ?? 0) + hits;
    parts.set(part, entry);
    const inDb = stack.some((frame) => ownPath(frame.callFrame.url)?.includes('server/src/db/') === true);
    if (!part.startsWith('SDK') && (kind === 'SQLite' || kind === 'Kysely' || inDb)) {
      const caller = statementCaller(stack);
      const statement = statements.get(caller) ?? { samples: 0, sqlite: 0 };
      statement.samples += hits;
      if (kind === 'SQLite') statement.sqlite += hits;
      statements.set(caller, statement);
    }
  }
  return {
    busySamples,
    parts: [...parts.entries()].map(([part, entry]) => ({ part, ...entry })).sort((a, b) => b.samples - a.samples),
    statements: [...statements.entries()].map(([caller, entry]) => ({ caller, ...entry })).sort((a, b) => b.samples - a.samples),
  };
}
