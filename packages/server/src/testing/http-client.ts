import type { Challenge } from 'altcha-lib';
import { botcheckTokenFor } from './client.ts';

/**
 * A browser-like client of a server running in its own process (src/main.ts), over real HTTP: keeps the session
 * cookie, sends JSON as the web app does, solves the bot-check as the checkout does. `base` is read at each request
 * (a restarted server may listen elsewhere).
 */
export class HttpClient {
  cookie = '';
  constructor(readonly base: () => string) {}

  async send(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${this.base()}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie === '' ? {} : { cookie: this.cookie }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const session = response.headers.getSetCookie().find((c) => c.startsWith('kassa_session='));
    if (session !== undefined) this.cookie = session.split(';')[0] ?? '';
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  /** A solved `payment` challenge of this client's session. */
  async botcheck(): Promise<string> {
    const { status, json } = await this.send('GET', '/api/botcheck/challenge?action=payment');
    if (status !== 200) throw new Error(`challenge refused: ${status}`);
    return botcheckTokenFor(json as unknown as Challenge);
  }
}
