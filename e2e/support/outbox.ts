import { expect, type APIRequestContext } from '@playwright/test';

export interface OutboxMail {
  to: string;
  subject: string;
  body: string;
}

/**
 * The mails Kassa sent to `to`, newest first, read in its dev outbox (`GET /api/dev/outbox`: there is no mail server
 * here, so the dev delivery keeps them readable from this machine; it stands in for SMTP in every spec).
 */
export async function mailsTo(request: APIRequestContext, to: string): Promise<OutboxMail[]> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { mails: OutboxMail[] }).mails;
}

/** The link of the latest sign-up mail to `to` (the "finish creating your account" one). */
export async function signUpLink(request: APIRequestContext, to: string): Promise<string> {
  const [mail] = await mailsTo(request, to);
  const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail?.body ?? '')?.[0];
  if (link === undefined) throw new Error(`no sign-up link mailed to ${to}`);
  return link;
}
