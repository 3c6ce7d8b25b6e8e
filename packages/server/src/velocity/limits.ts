import type { Limit } from './velocity.ts';

/**
 * A BIN under test (issue 9): card testers walk through numbers of one issuer range and nearly all are declined,
 * while the shoppers of a popular BIN are mostly approved. So a BIN is held back only when, within the window, at
 * least `minDeclinedCards` of its distinct cards were declined AND they are at least `minDeclinedShare` of its
 * cards that got an answer (declined or approved): the volume of a BIN never trips it, its failure rate does.
 */
export interface BinTestingRule {
  rule: string;
  minDeclinedCards: number;
  minDeclinedShare: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** The velocity rules of each guarded action (src/velocity/velocity.ts), checked in the order given. */
export interface VelocityLimits {
  /** Sign-in attempts that did not succeed, per email (whether or not it has an account) and per IP. */
  signIn: Limit[];
  /** Sign-ups per IP (refused), and the sign-up mails one email is sent (past it: answered alike, not mailed). */
  signUp: { perIp: Limit; mailsPerEmail: Limit };
  /** Orders made, per session and per IP. */
  orders: Limit[];
  /** Client tokens handed out (checkout sessions), per session and per IP. */
  checkoutSessions: Limit[];
  /** Payment attempts and their outcomes, checked before the gateway is called. */
  payments: Limit[];
  /**
   * Cards saved (each is verified at the gateway: a card test of its own) and the verifications that failed, per
   * account and per IP, checked before the bot-check and the gateway; and the distinct cards of one BIN saved
   * shop-wide, checked once the card is known (a script saving good cards from many accounts and addresses).
   */
  cardSaves: Limit[];
  /** The BIN rule, checked on a payment's card once the others passed (src/velocity/guard.ts). */
  binTesting: BinTestingRule;
  /** Bot-check challenges handed out, per session and per IP (each costs a signature; farming them is refused). */
  botcheckChallenges: Limit[];
  /**
   * A client that keeps failing payments (declines of its session or its IP): its next ALTCHA challenges cost
   * BOTCHECK_ELEVATED_COST_FACTOR times more, whatever the shop alert says.
   */
  failingClient: Limit[];
  /**
   * The shop's declines: past this many within the window the shop is under attack, and the proof of work of every
   * new challenge costs BOTCHECK_ELEVATED_COST_FACTOR times more (src/velocity/shop-alert.ts). Rotating addresses,
   * sessions and orders does not escape it.
   */
  shopAlert: Limit;
}

const limit = (rule: string, action: Limit['action'], dimension: Limit['dimension'], max: number, windowMs: number): Limit => ({
  rule,
  action,
  dimension,
  max,
  windowMs,
});
const distinct = (rule: string, dimension: Limit['dimension'], max: number, windowMs: number): Limit => ({
  ...limit(rule, 'card_used', dimension, max, windowMs),
  distinct: true,
});

/**
 * Defaults sized for people: a shopper mistypes a password a few times, pays a couple of orders with one or two
 * cards, retries a declined card once or twice; a card tester needs hundreds of attempts. Per-IP limits are higher
 * than per-account ones (several shoppers may share an address); none counts another IP's attempts, so an attack
 * from elsewhere never blocks a real shopper.
 */
export const DEFAULT_VELOCITY_LIMITS: VelocityLimits = {
  signIn: [
    limit('sign_in_failures_per_email_per_15_minutes', 'sign_in', 'email', 10, 15 * MINUTE),
    limit('sign_in_failures_per_ip_per_15_minutes', 'sign_in', 'ip', 30, 15 * MINUTE),
  ],
  signUp: {
    perIp: limit('sign_ups_per_ip_per_hour', 'sign_up', 'ip', 20, HOUR),
    mailsPerEmail: limit('sign_up_mails_per_email_per_hour', 'sign_up', 'email', 3, HOUR),
  },
  orders: [
    limit('orders_per_session_per_hour', 'order', 'session', 30, HOUR),
    limit('orders_per_ip_per_hour', 'order', 'ip', 60, HOUR),
  ],
  checkoutSessions: [
    limit('checkout_sessions_per_session_per_hour', 'checkout_session', 'session', 30, HOUR),
    limit('checkout_sessions_per_ip_per_hour', 'checkout_session', 'ip', 60, HOUR),
  ],
  payments: [
    limit('payments_per_order_per_hour', 'payment', 'order', 5, HOUR),
    limit('payments_per_session_per_hour', 'payment', 'session', 10, HOUR),
    limit('payments_per_account_per_hour', 'payment', 'account', 10, HOUR),
    limit('payments_per_ip_per_hour', 'payment', 'ip', 20, HOUR),
    limit('declines_per_session_per_hour', 'decline', 'session', 3, HOUR),
    limit('declines_per_account_per_hour', 'decline', 'account', 3, HOUR),
    limit('declines_per_ip_per_hour', 'decline', 'ip', 5, HOUR),
    // Rules on the card itself hold whatever address, session or order a script rotates through.
    limit('payments_per_card_per_hour', 'payment', 'card', 5, HOUR),
    limit('declines_per_card_per_hour', 'decline', 'card', 3, HOUR),
    // One number tried with many expiry dates: its BIN and last four, whatever the expiry. Another card sharing them
    // (about one in 10,000 of a BIN's) waits out the hour after three declines of the tested one.
    limit('declines_per_card_digits_per_hour', 'decline', 'card_digits', 3, HOUR),
    distinct('distinct_cards_per_session_per_hour', 'session', 3, HOUR),
    distinct('distinct_cards_per_account_per_hour', 'account', 3, HOUR),
    distinct('distinct_cards_per_ip_per_hour', 'ip', 5, HOUR),
  ],
  cardSaves: [
    // Distinct saves (their Idempotency-Keys): a save sent again after its answer was lost is one save.
    { ...limit('card_saves_per_account_per_hour', 'card_save', 'account', 5, HOUR), distinct: true },
    { ...limit('card_saves_per_ip_per_hour', 'card_save', 'ip', 10, HOUR), distinct: true },
    limit('card_save_failures_per_account_per_hour', 'card_save_failure', 'account', 3, HOUR),
    limit('card_save_failures_per_ip_per_hour', 'card_save_failure', 'ip', 5, HOUR),
    // Shop-wide, whatever account or address: the distinct new cards of one BIN sent to the gateway's verification.
    { ...limit('card_saves_per_bin_per_hour', 'card_save', 'bin', 10, HOUR), distinct: true },
  ],
  // Shop-wide, on the failure rate of one issuer range (not its volume): see BinTestingRule.
  binTesting: { rule: 'bin_under_test', minDeclinedCards: 10, minDeclinedShare: 0.5, windowMs: HOUR },
  botcheckChallenges: [
    limit('botcheck_challenges_per_session_per_hour', 'botcheck_challenge', 'session', 30, HOUR),
    limit('botcheck_challenges_per_ip_per_hour', 'botcheck_challenge', 'ip', 120, HOUR),
  ],
  failingClient: [
    limit('declines_raise_challenge_cost_per_session', 'decline', 'session', 2, HOUR),
    limit('declines_raise_challenge_cost_per_ip', 'decline', 'ip', 2, HOUR),
  ],
  shopAlert: limit('shop_declines_per_15_minutes', 'decline', 'shop', 20, 15 * MINUTE),
};

/** Every rule's `max` times `factor` (VELOCITY_LIMIT_FACTOR: test runs from one address, a shop behind one NAT). */
export function scaleLimits(limits: VelocityLimits, factor: number): VelocityLimits {
  const scaleOne = (rule: Limit) => ({ ...rule, max: rule.max * factor });
  const scale = (rules: Limit[]) => rules.map(scaleOne);
  return {
    signIn: scale(limits.signIn),
    signUp: { perIp: scaleOne(limits.signUp.perIp), mailsPerEmail: scaleOne(limits.signUp.mailsPerEmail) },
    orders: scale(limits.orders),
    checkoutSessions: scale(limits.checkoutSessions),
    payments: scale(limits.payments),
    cardSaves: scale(limits.cardSaves),
    binTesting: { ...limits.binTesting, minDeclinedCards: limits.binTesting.minDeclinedCards * factor },
    botcheckChallenges: scale(limits.botcheckChallenges),
    failingClient: scale(limits.failingClient),
    shopAlert: scaleOne(limits.shopAlert),
  };
}
