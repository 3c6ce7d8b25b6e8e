import type { APIRequestContext } from '@playwright/test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/**
 * A bot-check token for `action`, solved as the web app solves it, for specs that call the API directly (their
 * subject comes after the call): the request context's cookies bind it to the same session as the call.
 */
export async function botcheckToken(
  request: APIRequestContext,
  action: 'sign_in' | 'sign_up' | 'save_card' | 'payment',
): Promise<string> {
  const challenge = (await (await request.get(`/api/botcheck/challenge?action=${action}`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('bot-check challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
