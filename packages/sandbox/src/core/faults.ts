// Fault injection (TEST ONLY): rules that make the sandbox answer some requests the way a failing gateway does, so
// that tests reach every failure message of the checkout and the server through the real wire. No HTTP here: the
// rules and their bookkeeping; src/test-controls/ applies them to requests and serves the control endpoint.

/** Which requests a rule applies to; a request belongs to every kind that contains it (tokenization < client_api < any). */
export const FAULT_TARGETS = [
  'configuration',
  'tokenization',
  'payment_methods',
  'three_d_secure',
  'client_api',
  'server_api',
  'pages',
  'any',
] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

export const FAULT_STATUSES = [401, 403, 429, 500, 503] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** What happens to a request a rule catches. */
export type Fault =
  /** Answered normally, `ms` milliseconds late. */
  | { type: 'delay'; ms: number }
  /** Never answered: the connection stays open until the client gives up (or the sandbox closes). */
  | { type: 'timeout' }
  /** Answered with this status instead (`retryAfter` seconds in a Retry-After header; 429 gets 1 when not given). */
  | { type: 'status'; status: FaultStatus; retryAfter?: number }
  /** The connection is destroyed without an answer. */
  | { type: 'drop' };

export interface FaultSpec {
  target: FaultTarget;
  /** Only requests with this method (GET, POST, ...). */
  method?: string;
  /** Only requests whose path (no query string) this regular expression matches, e.g. "/transactions$". */
  path?: string;
  fault: Fault;
  /** How many requests to fail at most: 1 by default, unlimited by default when `share` is given. */
  count?: number;
  /** The share of matching requests to fail, (0, 1]: 0.5 fails every second one (deterministic, not random). */
  share?: number;
}

export interface FaultRule extends FaultSpec {
  id: string;
  /** Faults still to inject; null for unlimited. */
  remaining: number | null;
  /** Requests this rule has failed so far. */
  injected: number;
}

/** A request as the rules see it. */
export interface FaultRequest {
  method: string;
  path: string;
  targets: readonly FaultTarget[];
}

const MAX_DELAY_MS = 10 * 60 * 1000;

/** Checks a spec from outside (the control endpoint's JSON): the problems, one line each, or the spec. */
export function parseFaultSpec(value: unknown): { ok: true; spec: FaultSpec } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const input = isObject(value) ? value : {};
  if (!isObject(value)) problems.push('the body must be a JSON object');
  const target = input['target'];
  if (!FAULT_TARGETS.includes(target as FaultTarget)) problems.push(`target must be one of ${FAULT_TARGETS.join(', ')}`);
  const method = input['method'];
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) {
    problems.push('method must be an HTTP method such as GET or POST');
  }
  const path = input['path'];
  if (path !== undefined && (typeof path !== 'string' || !isRegExp(path))) problems.push('path must be a regular expression');
  const count = input['count'];
  if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1)) problems.push('count must be an integer >= 1');
  const share = input['share'];
  if (share !== undefined && !(typeof share === 'number' && share > 0 && share <= 1)) {
    problems.push('share must be a number in (0, 1]');
  }
  const fault = parseFault(input['fault'], problems);
  if (problems.length > 0 || fault === null) return { ok: false, problems };
  return {
    ok: true,
    spec: {
      target: target as FaultTarget,
      ...(method === undefined ? {} : { method: (method as string).toUpperCase() }),
      ...(path === undefined ? {} : { path: path as string }),
      fault,
      ...(count === undefined ? {} : { count: count as number }),
      ...(share === undefined ? {} : { share: share as number }),
    },
  };
}

function parseFault(value: unknown, problems: string[]): Fault | null {
  if (!isObject(value)) {
    problems.push('fault must be an object: { type: "delay" | "timeout" | "status" | "drop", ... }');
    return null;
  }
  switch (value['type']) {
    case 'timeout':
    case 'drop':
      return { type: value['type'] };
    case 'delay': {
      const ms = value['ms'];
      if (Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= MAX_DELAY_MS)
        return { type: 'delay', ms: ms as number };
      problems.push(`fault.ms must be an integer number of milliseconds, 0 to ${MAX_DELAY_MS}`);
      return null;
    }
    case 'status': {
      const status = value['status'];
      const retryAfter = value['retryAfter'];
      if (!FAULT_STATUSES.includes(status as FaultStatus))
        problems.push(`fault.status must be one of ${FAULT_STATUSES.join(', ')}`);
      if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0)) {
        problems.push('fault.retryAfter must be a whole number of seconds');
      }
      if (problems.length > 0) return null;
      return {
        type: 'status',
        status: status as FaultStatus,
        ...(retryAfter === undefined ? {} : { retryAfter: retryAfter as number }),
      };
    }
    default:
      problems.push('fault.type must be one of delay, timeout, status, drop');
      return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

interface ActiveRule {
  rule: FaultRule;
  path: RegExp | null;
  /** Error diffusion for `share`: adds the share per matching request, fires at 1 (exact shares, repeatable runs). */
  credit: number;
}

/** The active rules, in the order they were added; the first one that fires decides a request's fate. */
export class Faults {
  private readonly rules: ActiveRule[] = [];
  private nextId = 1;

  inject(spec: FaultSpec): FaultRule {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) throw new TypeError(`sandbox fault: ${parsed.problems.join('; ')}`);
    const { count, share } = parsed.spec;
    const rule: FaultRule = {
      ...parsed.spec,
      id: `fault_${this.nextId++}`,
      remaining: count ?? (share === undefined ? 1 : null),
      injected: 0,
    };
    this.rules.push({ rule, path: rule.path === undefined ? null : new RegExp(rule.path), credit: 0 });
    return { ...rule };
  }

  /** No rule is active: every request goes through as it is. */
  get empty(): boolean {
    return this.rules.length === 0;
  }

  list(): FaultRule[] {
    return this.rules.map(({ rule }) => ({ ...rule }));
  }

  remove(id: string): boolean {
    const index = this.rules.findIndex(({ rule }) => rule.id === id);
    if (index < 0) return false;
    this.rules.splice(index, 1);
    return true;
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The fault for this request, if a rule fires; a rule that has injected its count is removed. */
  take(request: FaultRequest): Fault | null {
    for (const [index, active] of this.rules.entries()) {
      const { rule } = active;
      if (!request.targets.includes(rule.target)) continue;
      if (rule.method !== undefined && rule.method !== request.method) continue;
      if (active.path !== null && !active.path.test(request.path)) continue;
      active.credit += rule.share ?? 1;
      // The epsilon absorbs float sums (ten times 0.1 is 0.9999999999999999).
      if (active.credit < 1 - 1e-9) continue;
      active.credit -= 1;
      rule.injected += 1;
      if (rule.remaining !== null) {
        rule.remaining -= 1;
        if (rule.remaining === 0) this.rules.splice(index, 1);
      }
      return rule.fault;
    }
    return null;
  }
}
