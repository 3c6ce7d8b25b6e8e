import { z } from 'zod';
import { accountSchema } from '../../accounts/account.ts';
import { moneySchema } from '../../money.ts';

export const emailSchema = z
  .string()
  .trim()
  .max(254, 'Use at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'));

/**
 * The shopper's consent to move the orders of this browser's guest session into the account. Never assumed: orders
 * someone else made in this browser (a shared computer, a planted cookie) must not land in the shopper's account.
 */
function keepGuestOrdersSchema() {
  return z.boolean().optional().describe("Move the guest session's orders into the account (default: no)");
}

/** Orders of the visitor's guest session, listed so they can tell whether they are theirs before keeping them. */
export const guestOrderSchema = z.object({ number: z.number().int(), total: moneySchema, createdAt: z.string() });

/** What GET /api/session answers. */
export const sessionStateSchema = z.object({ account: accountSchema.nullable(), guestOrders: z.array(guestOrderSchema) });

export const signUpBody = z.object({
  email: emailSchema,
  // 8+ characters (NIST SP 800-63B); an upper bound keeps hashing cheap to refuse.
  password: z.string().min(8, 'Use at least 8 characters.').max(256, 'Use at most 256 characters.'),
  name: z.string().trim().min(1, 'Enter your name.').max(200, 'Use at most 200 characters.'),
  botcheck: z
    .string()
    .max(8192)
    .optional()
    .describe('The bot-check token, when the merchant guards this action (`GET /api/botcheck/settings`).'),
});

export const signInBody = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(254),
  password: z.string().min(1, 'Enter your password.').max(256),
  keepGuestOrders: keepGuestOrdersSchema(),
  botcheck: z
    .string()
    .max(8192)
    .optional()
    .describe('The bot-check token, when the merchant guards this action (`GET /api/botcheck/settings`).'),
});

export const accountResponse = z.object({ account: accountSchema });

/** What a sign-up answers, whether or not the email has an account: the rest happens by mail. */
export const signUpAnswer = z.object({
  status: z.literal('check_email').describe('A mail went to the address: a link to finish, or a note to sign in'),
});

/** Following the mailed link: the token from it, and (in this browser) whether to keep the guest session's orders. */
export const confirmSignUpBody = z.object({
  token: z.string().min(1).max(200),
  keepGuestOrders: keepGuestOrdersSchema(),
});
