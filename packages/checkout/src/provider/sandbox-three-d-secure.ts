// 3-D Secure 2 against Kassa's sandbox gateway (docs/contracts.md section 1, "3-D Secure 2"): the lookup, the
// challenge page on the gateway's origin (shown by the checkout's modal frame), and the challenge's result.
// Imported on demand by the sandbox provider, so a checkout without 3-D Secure never downloads it.
import type { PaymentMethodResult } from '../machine/checkout.types.ts';
import type { ClientToken } from './client-token.ts';
import type { ThreeDSecureOutcome, ThreeDSecureRequest } from './provider.ts';
import { isRecord } from './json.ts';
import { clientApiPost, type GatewayFetch } from './sandbox-client-api.ts';

/** What the challenge page posts to its parent (the sandbox's pages/three-d-secure/protocol.ts). */
const CHALLENGE_SOURCE = 'kassa-three-d-secure';

/** The card with the gateway's 3-D Secure result: the new nonce and the outcome; the card's details stay. */
export function withThreeDSecure(card: PaymentMethodResult, paymentMethod: unknown): PaymentMethodResult | null {
  if (!isRecord(paymentMethod) || typeof paymentMethod.nonce !== 'string' || !isRecord(paymentMethod.threeDSecureInfo))
    return null;
  const info = paymentMethod.threeDSecureInfo;
  return {
    ...card,
    nonce: paymentMethod.nonce,
    liabilityShifted: info.liabilityShifted === true,
    liabilityShiftPossible: info.liabilityShiftPossible === true,
    threeDSecureInfo: info,
  };
}

/**
 * The shopper's browser for the lookup, the fields braintree-web's verifyCard adds with `collectDeviceData: true`
 * (3.144, three-d-secure/external/frameworks/base.js `_formatLookupData`; the real provider's client passes that
 * option): EMV 3-D Secure 2's browser data, which the issuer weighs to authenticate without a challenge.
 */
export function browserData() {
  return {
    browserColorDepth: window.screen.colorDepth,
    // Always false in today's browsers; sent as braintree-web sends it.
    browserJavaEnabled: navigator.javaEnabled(),
    browserJavascriptEnabled: true,
    browserLanguage: navigator.language,
    browserScreenHeight: window.screen.height,
    browserScreenWidth: window.screen.width,
    browserTimeZone: new Date().getTimezoneOffset(),
    deviceChannel: 'Browser',
  };
}

type ChallengeEnd = 'complete' | 'cancelled' | 'failed' | 'aborted';

/** Waits for the challenge page's last word, from the gateway's origin and about this challenge only. */
function challengeEnd(challengeId: string, gatewayOrigin: string, signal: AbortSignal): Promise<ChallengeEnd> {
  return new Promise((resolve) => {
    const finish = (end: ChallengeEnd): void => {
      window.removeEventListener('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      resolve(end);
    };
    const onAbort = (): void => finish('aborted');
    const onMessage = (event: MessageEvent<unknown>): void => {
      const data = event.data;
      if (
        event.origin !== gatewayOrigin ||
        !isRecord(data) ||
        data.source !== CHALLENGE_SOURCE ||
        data.challengeId !== challengeId
      )
        return;
      if (data.type === 'complete' || data.type === 'cancelled' || data.type === 'failed') finish(data.type);
    };
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) finish('aborted');
  });
}

export async function verifyWithSandbox(
  token: ClientToken,
  request: ThreeDSecureRequest,
  fetchFromGateway: GatewayFetch,
): Promise<ThreeDSecureOutcome> {
  const { card, amount, config, signal } = request;
  const post = clientApiPost(token, config.clientApiUrl, signal, fetchFromGateway);

  try {
    const lookup = await post(
      `/v1/payment_methods/${encodeURIComponent(card.nonce)}/three_d_secure/lookup`,
      { amount, ...browserData() },
      'the 3-D Secure lookup',
    );
    const verified = withThreeDSecure(card, lookup.paymentMethod);
    if (verified !== null) return { kind: 'result', result: verified };

    const challenge = isRecord(lookup.lookup) ? lookup.lookup : {};
    const { challengeId, acsUrl } = challenge;
    const gatewayOrigin = new URL(config.assetsUrl).origin;
    // The challenge page must be the gateway's own: never frame a page another origin named.
    if (typeof challengeId !== 'string' || typeof acsUrl !== 'string' || new URL(acsUrl).origin !== gatewayOrigin) {
      return { kind: 'failed', detail: 'The 3-D Secure lookup gave neither a result nor a challenge on the gateway origin.' };
    }
    const ended = challengeEnd(challengeId, gatewayOrigin, signal);
    request.showChallenge(
      `${acsUrl}#${encodeURIComponent(JSON.stringify({ challengeId, parentOrigin: window.location.origin }))}`,
    );
    const end = await ended;
    if (end === 'aborted' || end === 'cancelled') return { kind: 'canceled' };
    if (end === 'failed') return { kind: 'failed', detail: 'The 3-D Secure challenge page could not show the challenge.' };

    const answer = await post(
      `/v1/three_d_secure/challenges/${encodeURIComponent(challengeId)}/result`,
      {},
      'the 3-D Secure challenge result',
    );
    const result = withThreeDSecure(card, answer.paymentMethod);
    return result !== null
      ? { kind: 'result', result }
      : { kind: 'failed', detail: 'The 3-D Secure challenge result has no payment method.' };
  } catch (error) {
    if (signal.aborted) return { kind: 'canceled' };
    return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
}
