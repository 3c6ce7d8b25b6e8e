import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

// A local stand-in of reCAPTCHA, hCaptcha and Turnstile: their widget scripts (widget.js, with an anchor frame that
// makes tokens) and their siteverify endpoints, on one origin. The real providers cannot be reached from here (no
// internet), so the server's verifier and the browser are tested against this, over real HTTP. It models what the
// providers publish (botcheck.md): single-use tokens with their lives, the host name and action the widget ran with,
// v3 scores, Turnstile's cData, the error codes, and the published test keys' behaviour.

export type StandinProvider = 'recaptcha-v2' | 'recaptcha-v3' | 'hcaptcha' | 'turnstile';

/** The stand-in's own key pair (any provider): tokens its widget makes for this site key verify with this secret. */
export const STANDIN_KEYS = { siteKey: 'standin-site-key', secretKey: 'standin-secret-key' } as const;

/** The providers' published test keys (botcheck.md), as the stand-in models them. */
export const TEST_KEYS = {
  recaptcha: { siteKey: '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI', secretKey: '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe' },
  hcaptcha: {
    siteKey: '10000000-ffff-ffff-ffff-000000000001',
    secretKey: '0x0000000000000000000000000000000000000000',
    response: '10000000-aaaa-bbbb-cccc-000000000001',
  },
  turnstile: {
    passSiteKey: '1x00000000000000000000AA',
    blockSiteKey: '2x00000000000000000000AB',
    passSecret: '1x0000000000000000000000000000000AA',
    failSecret: '2x0000000000000000000000000000000AA',
    spentSecret: '3x0000000000000000000000000000000AA',
    response: 'XXXX.DUMMY.TOKEN.XXXX',
  },
} as const;

/** The host names siteverify reports for the test keys' tokens (not the shop's: they work on any site). */
export const TEST_KEY_HOSTNAMES = {
  recaptcha: 'testkey.google.com',
  hcaptcha: 'dummy-key-pass',
  turnstile: 'example.com',
} as const;

const TOKEN_LIFE_SECONDS: Record<StandinProvider, number> = {
  'recaptcha-v2': 120,
  'recaptcha-v3': 120,
  hcaptcha: 120,
  turnstile: 300,
};

const VERIFY_PATHS: Record<string, 'recaptcha' | 'hcaptcha' | 'turnstile'> = {
  '/recaptcha/api/siteverify': 'recaptcha',
  '/hcaptcha/siteverify': 'hcaptcha',
  '/turnstile/v0/siteverify': 'turnstile',
};

/** Where each provider's script and siteverify live on the stand-in. */
export function standinUrls(base: string, provider: StandinProvider): { scriptUrl: string; verifyUrl: string } {
  switch (provider) {
    case 'recaptcha-v2':
    case 'recaptcha-v3':
      return { scriptUrl: `${base}/recaptcha/api.js`, verifyUrl: `${base}/recaptcha/api/siteverify` };
    case 'hcaptcha':
      return { scriptUrl: `${base}/hcaptcha/1/api.js`, verifyUrl: `${base}/hcaptcha/siteverify` };
    case 'turnstile':
      return { scriptUrl: `${base}/turnstile/v0/api.js`, verifyUrl: `${base}/turnstile/v0/siteverify` };
  }
}

interface Issued {
  provider: StandinProvider;
  siteKey: string;
  hostname: string;
  action: string;
  cdata: string;
  score: number;
  issuedAt: number;
  spent: boolean;
}

/** What a test can change while the stand-in runs (also `POST /controls` with these members, for e2e). */
export interface StandinControls {
  /** siteverify answers 503 (the provider down). */
  down: boolean;
  /** The next widget executions show a challenge a person must click through. */
  interactive: boolean;
  /** reCAPTCHA v3 score of the next tokens. */
  score: number;
  /** Seconds added to the stand-in's clock (to expire tokens). */
  clockOffsetSeconds: number;
}

export interface BotcheckStandin {
  url: string;
  controls: StandinControls;
  /** The last siteverify request's form, for tests that check what the server sent (remoteip, sitekey, ...). */
  lastVerify(): URLSearchParams | null;
  close(): Promise<void>;
}

const widgetScript = readFileSync(join(import.meta.dirname, 'widget.js'), 'utf8');
const anchorPage = readFileSync(join(import.meta.dirname, 'anchor.html'), 'utf8');

export async function startBotcheckStandin(host = '127.0.0.1'): Promise<BotcheckStandin> {
  const controls: StandinControls = { down: false, interactive: false, score: 0.9, clockOffsetSeconds: 0 };
  const issued = new Map<string, Issued>();
  let lastVerify: URLSearchParams | null = null;
  const now = () => Date.now() / 1000 + controls.clockOffsetSeconds;

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => send(response, 500, 'text/plain', 'stand-in error'));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://standin');
    const path = url.pathname;
    if (request.method === 'GET' && /^\/(recaptcha\/api|hcaptcha\/1\/api|turnstile\/v0\/api)\.js$/.test(path)) {
      return send(response, 200, 'text/javascript', widgetScript);
    }
    if (request.method === 'GET' && ['/anchor', '/recaptcha/api2/bframe', '/recaptcha/api2/anchor'].includes(path))
      return send(response, 200, 'text/html', anchorPage);
    if (request.method === 'GET' && path === '/mode') return sendJson(response, 200, { interactive: controls.interactive });
    if (request.method === 'POST' && path === '/token')
      return sendJson(response, ...issue(JSON.parse(await body(request)) as Record<string, unknown>));
    if (request.method === 'POST' && path === '/controls') {
      Object.assign(controls, JSON.parse(await body(request)) as Partial<StandinControls>);
      return sendJson(response, 200, controls);
    }
    const family = VERIFY_PATHS[path];
    if (request.method === 'POST' && family !== undefined) {
      if (controls.down) return send(response, 503, 'text/plain', 'unavailable');
      const form = new URLSearchParams(await body(request));
      lastVerify = form;
      return sendJson(response, 200, siteverify(family, form));
    }
    send(response, 404, 'text/plain', 'not found');
  }

  /** The anchor frame asks for a token: the widget's site key decides what kind (a test key's dummy, or a real one). */
  function issue(input: Record<string, unknown>): [number, unknown] {
    const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : '');
    const kind = text('kind');
    const siteKey = text('sitekey');
    if (kind === 'turnstile' && siteKey === TEST_KEYS.turnstile.blockSiteKey) return [400, { code: '300030' }];
    if (kind === 'turnstile' && siteKey === TEST_KEYS.turnstile.passSiteKey)
      return [200, { token: TEST_KEYS.turnstile.response }];
    if (kind === 'hcaptcha' && siteKey === TEST_KEYS.hcaptcha.siteKey) return [200, { token: TEST_KEYS.hcaptcha.response }];
    const provider: StandinProvider =
      kind === 'recaptcha'
        ? input['v3'] === true
          ? 'recaptcha-v3'
          : 'recaptcha-v2'
        : kind === 'hcaptcha'
          ? 'hcaptcha'
          : 'turnstile';
    const token = `${provider}.${randomBytes(24).toString('base64url')}`;
    issued.set(token, {
      provider,
      siteKey,
      hostname: text('hostname'),
      action: text('action'),
      cdata: text('cdata'),
      score: controls.score,
      issuedAt: now(),
      spent: false,
    });
    return [200, { token }];
  }

  function siteverify(family: 'recaptcha' | 'hcaptcha' | 'turnstile', form: URLSearchParams): Record<string, unknown> {
    const secret = form.get('secret');
    const response = form.get('response');
    const fail = (...codes: string[]) => ({ success: false, 'error-codes': codes });
    if (secret === null || secret === '') return fail('missing-input-secret');
    if (response === null || response === '') return fail('missing-input-response');
    const testAnswer = testKeyAnswer(family, secret, response);
    if (testAnswer !== null) return testAnswer;
    if (secret !== STANDIN_KEYS.secretKey) return fail('invalid-input-secret');
    const token = issued.get(response);
    if (token === undefined || !token.provider.startsWith(family)) return fail('invalid-input-response');
    if (token.siteKey !== STANDIN_KEYS.siteKey) return fail('invalid-input-response');
    if (family === 'hcaptcha' && form.get('sitekey') !== null && form.get('sitekey') !== token.siteKey)
      return fail('sitekey-secret-mismatch');
    if (token.spent || now() - token.issuedAt > TOKEN_LIFE_SECONDS[token.provider]) return fail('timeout-or-duplicate');
    token.spent = true;
    const answer: Record<string, unknown> = {
      success: true,
      challenge_ts: new Date(token.issuedAt * 1000).toISOString(),
      hostname: token.hostname,
      'error-codes': [],
    };
    if (token.provider === 'recaptcha-v3') Object.assign(answer, { score: token.score, action: token.action });
    if (token.provider === 'turnstile') Object.assign(answer, { action: token.action, cdata: token.cdata });
    return answer;
  }

  function testKeyAnswer(
    family: 'recaptcha' | 'hcaptcha' | 'turnstile',
    secret: string,
    response: string,
  ): Record<string, unknown> | null {
    const passed = (extra: Record<string, unknown> = {}) => ({
      success: true,
      challenge_ts: new Date().toISOString(),
      hostname: TEST_KEY_HOSTNAMES[family],
      'error-codes': [],
      ...extra,
    });
    if (family === 'recaptcha' && secret === TEST_KEYS.recaptcha.secretKey) return passed();
    if (family === 'hcaptcha' && secret === TEST_KEYS.hcaptcha.secretKey) {
      return response === TEST_KEYS.hcaptcha.response ? passed() : { success: false, 'error-codes': ['invalid-input-response'] };
    }
    if (family === 'turnstile') {
      if (secret === TEST_KEYS.turnstile.passSecret) return passed({ action: '', cdata: '' });
      if (secret === TEST_KEYS.turnstile.failSecret) return { success: false, 'error-codes': ['invalid-input-response'] };
      if (secret === TEST_KEYS.turnstile.spentSecret) return { success: false, 'error-codes': ['timeout-or-duplicate'] };
    }
    return null;
  }

  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('stand-in did not listen');
  return {
    url: `http://${host}:${address.port}`,
    controls,
    lastVerify: () => lastVerify,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, type: string, text: string): void {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  response.end(text);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json', JSON.stringify(value));
}
