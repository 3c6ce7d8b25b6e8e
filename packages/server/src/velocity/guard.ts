import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../http/problem.ts';
import type { Owner } from '../orders/order.ts';
import type { Limit, Subjects, Velocity, VelocityAction } from './velocity.ts';

/**
 * Counts this request's `action` against its subjects, then refuses it (429 `too_many_attempts`, Retry-After, the
 * rule named) when a limit is past; the refusal is recorded for the merchant. Returns the recorded events' ids.
 */
export async function enforceLimits(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  action: VelocityAction,
  subjects: Subjects,
  limits: readonly Limit[],
): Promise<string[]> {
  const ids = await velocity.record(action, subjects);
  const exceeded = await velocity.exceeded(limits, subjects, action);
  if (exceeded !== null) {
    await velocity.noteRefusal(exceeded, request.log);
    void reply.header('retry-after', String(exceeded.retryAfterSeconds));
    throw new ProblemError('too_many_attempts', { extensions: { rule: exceeded.limit.rule, retryAfterSeconds: exceeded.retryAfterSeconds } });
  }
  return ids;
}

/** What a payment attempt is counted against: its order, the session, the account when signed in, the client IP. */
export function paymentSubjects(request: FastifyRequest, owner: Owner, orderId: string): Subjects {
  return { order: orderId, session: owner.sessionId, ip: request.ip, ...(owner.accountId === null ? {} : { account: owner.accountId }) };
}
