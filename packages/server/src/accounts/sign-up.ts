import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { newId, nowIso } from '../ids.ts';
import { alreadyRegisteredMail, confirmSignUpMail } from '../mail/messages.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { normalizeEmail, toAccount } from './account.ts';
import type { Account } from './account.ts';
import { findAccountByEmail, insertAccount } from './accounts.repository.ts';
import { hashPassword } from './passwords.ts';
import type { PasswordCost } from './passwords.ts';

/** How long a sign-up's mailed link works. */
export const SIGN_UP_LINK_HOURS = 24;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A sign-up request (issue 9: the answer must not say whether the email has an account). Whatever the email, the
 * password is hashed and one mail is written to the outbox; the caller answers the same "check your email" either way.
 * A new email gets a link that makes the account (confirmSignUp), one with an account a note to sign in instead.
 * `mayMail` false (the email was sent too many sign-up mails lately): the same work, no mail.
 */
export async function requestSignUp(
  deps: { db: Db; outbox: MailOutbox; config: { passwordCost: PasswordCost } },
  input: { email: string; password: string; name: string },
  links: { origin: string; mayMail: boolean },
  now: Date = new Date(),
): Promise<void> {
  const email = normalizeEmail(input.email);
  const name = input.name.trim();
  const passwordHash = await hashPassword(input.password, deps.config.passwordCost);
  const registered = (await findAccountByEmail(deps.db, email)) !== undefined;
  // One transaction either way (the pending sign-up and its mail, or the mail alone): one commit each, same time.
  await deps.db.transaction().execute(async (trx) => {
    const mail = registered
      ? alreadyRegisteredMail({ signInLink: `${links.origin}/sign-in` })
      : await pendingSignUpMail(trx, { email, name, passwordHash }, links.origin, now);
    if (links.mayMail) await deps.outbox.enqueue({ to: email, ...mail }, trx);
  });
}

async function pendingSignUpMail(
  db: Db,
  signUp: { email: string; name: string; passwordHash: string },
  origin: string,
  now: Date,
) {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sign_ups')
    .values({
      id: newId('sgn'),
      token_hash: tokenHash(token),
      email: signUp.email,
      name: signUp.name,
      password_hash: signUp.passwordHash,
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + SIGN_UP_LINK_HOURS * 60 * 60 * 1000)),
    })
    .execute();
  return confirmSignUpMail({ name: signUp.name, link: `${origin}/verify-email?token=${token}`, hours: SIGN_UP_LINK_HOURS });
}

export type ConfirmSignUpResult = { kind: 'created'; account: Account } | { kind: 'link_invalid' } | { kind: 'email_taken' };

/**
 * Follows a sign-up's mailed link: the pending sign-up is taken (deleted: a link works once) and its account made.
 * Whoever holds the link owns the mailbox, so telling them the email got an account meanwhile reveals nothing.
 */
export async function confirmSignUp(db: Db, token: string, now: Date = new Date()): Promise<ConfirmSignUpResult> {
  const signUp = await db
    .deleteFrom('sign_ups')
    .where('token_hash', '=', tokenHash(token))
    .where('expires_at', '>', nowIso(now))
    .returningAll()
    .executeTakeFirst();
  if (signUp === undefined) return { kind: 'link_invalid' };
  const row = await insertAccount(db, {
    email: signUp.email,
    name: signUp.name,
    passwordHash: signUp.password_hash,
    role: 'shopper',
  });
  if (row === undefined) return { kind: 'email_taken' };
  // Other sign-ups of the same email (asked twice) have nothing left to make.
  await db.deleteFrom('sign_ups').where('email', '=', signUp.email).execute();
  return { kind: 'created', account: toAccount(row) };
}
