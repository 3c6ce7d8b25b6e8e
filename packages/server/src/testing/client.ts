import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { solveChallenge } from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** The server handed out no bot-check challenge (e.g. 429: this session or address asked for too many). */
export class ChallengeRefused extends Error {
  constructor(readonly statusCode: number) {
    super(`bot-check challenge refused with ${statusCode}`);
  }
}

/** A browser-like client over `inject`: keeps the session cookie, sends JSON the way the web app does. */
export class TestClient {
  readonly #app: FastifyInstance;
  readonly #remoteAddress: string | undefined;
  #cookie: string | undefined;

  /** `remoteAddress`: the client's IP as the server sees it (inject's default is 127.0.0.1). */
  constructor(app: FastifyInstance, remoteAddress?: string) {
    this.#app = app;
    this.#remoteAddress = remoteAddress;
  }

  get cookie(): string | undefined {
    return this.#cookie;
  }

  async request(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.#app.inject({
      method,
      url,
      ...(this.#remoteAddress === undefined ? {} : { remoteAddress: this.#remoteAddress }),
      headers: {
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
        ...(this.#cookie !== undefined ? { cookie: this.#cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    const setCookie = response.cookies.find((c) => c.name === 'kassa_session');
    if (setCookie !== undefined) this.#cookie = setCookie.value === '' ? undefined : `kassa_session=${setCookie.value}`;
    return response;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.request('GET', url);
  }

  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('POST', url, body, headers);
  }

  /**
   * Signs up as a person does: the sign-up form, then the link its mail holds (read in the dev outbox, from this
   * machine), keeping the guest session's orders if `confirm` says so. Answers the confirmation (or a refused sign-up).
   */
  async signUp(
    body: { email: string; password: string; name: string; botcheck?: string },
    confirm: { keepGuestOrders?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const asked = await this.post('/api/accounts', body);
    if (asked.statusCode !== 202) return asked;
    const token = signUpToken((await latestMail(this.#app, body.email))?.body ?? '');
    return this.post('/api/accounts/confirmation', { token, ...confirm });
  }

  /** Does what the checkout's bot-check does: fetch a challenge (for `action`), solve it, encode the payload. */
  async botcheckToken(action = 'payment'): Promise<string> {
    return encodedToken(await this.#solvedChallenge(action));
  }

  /** The work a fresh challenge took: the counter its solution needed (the keys tried). */
  async botcheckCounter(): Promise<number> {
    return (await this.#solvedChallenge('payment')).solution.counter;
  }

  async #solvedChallenge(action: string) {
    const response = await this.get(`/api/botcheck/challenge?action=${action}`);
    if (response.statusCode !== 200) throw new ChallengeRefused(response.statusCode);
    return solvedChallenge(response.json<Challenge>());
  }
}

/** Solves a challenge the way the checkout's bot-check does. */
async function solvedChallenge(challenge: Challenge) {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 10_000 });
  if (solution === null) throw new Error('bot-check challenge not solved');
  return { challenge, solution };
}

function encodedToken(solved: Awaited<ReturnType<typeof solvedChallenge>>): string {
  return Buffer.from(JSON.stringify(solved)).toString('base64');
}

/** The token a payment carries for a challenge the server handed out (over real HTTP): solved and encoded. */
export async function botcheckTokenFor(challenge: Challenge): Promise<string> {
  return encodedToken(await solvedChallenge(challenge));
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
  sentAt: string | null;
}

/** The mails the dev outbox holds for `to`, newest first (read as a developer would, from this machine). */
export async function outbox(app: FastifyInstance, to: string): Promise<OutboxMail[]> {
  const response = await app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  if (response.statusCode !== 200) throw new Error(`dev outbox answered ${response.statusCode}`);
  return response.json<{ mails: OutboxMail[] }>().mails;
}

export async function latestMail(app: FastifyInstance, to: string): Promise<OutboxMail | undefined> {
  return (await outbox(app, to))[0];
}

/** The token of a sign-up mail's link ('' when the mail has none: the "you already have an account" one). */
export function signUpToken(mailBody: string): string {
  return /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mailBody)?.[1] ?? '';
}

/** The accounts every test database is seeded with, at their default (test-only) passwords. */
export const DEMO_ADMIN = { email: 'admin@kassa.test', password: 'kassa-demo-admin' } as const;
export const DEMO_SHOPPER = { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' } as const;

/** A client signed in to `app` as `account`; throws if the sign-in is refused. */
export async function signedIn(app: FastifyInstance, account: { email: string; password: string }): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.post('/api/session', account);
  if (response.statusCode !== 200) throw new Error(`sign-in as ${account.email} answered ${response.statusCode}`);
  return client;
}
