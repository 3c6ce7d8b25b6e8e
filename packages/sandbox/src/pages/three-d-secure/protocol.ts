// The challenge page's messages to the checkout that opened it (docs/contracts.md section 1, "3-D Secure 2").

export const CHALLENGE_MESSAGE_SOURCE = 'kassa-three-d-secure';

/** Where the page was asked to report: the URL fragment, JSON. */
export interface ChallengeFragment {
  challengeId: string;
  parentOrigin: string;
}

/**
 * `ready` once the page shows the challenge; `complete` once the code was checked (pass or fail: the checkout reads
 * the result from the client API); `cancelled` when the shopper cancels (Cancel or Escape); `failed` when the page
 * cannot show the challenge (unknown or expired).
 */
export interface ChallengeMessage {
  source: typeof CHALLENGE_MESSAGE_SOURCE;
  challengeId: string;
  type: 'ready' | 'complete' | 'cancelled' | 'failed';
}
