import type { Db } from '../db/connect.ts';
import type { DisputeChange, DisputeEvidence, DisputeGateway, EvidenceFile, GatewayDispute } from '../gateway/dispute-gateway.ts';
import { findAdminDispute, recordDispute } from './disputes.query.ts';
import type { AdminDispute } from './disputes.query.ts';

// What the merchant does with a dispute, at the gateway (the source of truth), the shop's copy kept in step at once
// rather than at the next webhook.

export interface DisputeDeps {
  db: Db;
  disputes: DisputeGateway;
}

/** A dispute as the gateway has it now, with its evidence. */
export interface DisputeDetail {
  dispute: AdminDispute;
  evidence: DisputeEvidence[];
}

export type DisputeActionOutcome =
  | { kind: 'done'; detail: DisputeDetail }
  | { kind: 'dispute_not_found' }
  /** The dispute is closed (accepted, won, lost, or with the bank): it can no longer be accepted or answered. */
  | { kind: 'dispute_not_open' }
  | { kind: 'gateway_refused'; codes: string[] };

export type EvidenceInput = { text: string } | { file: EvidenceFile };

async function describe(deps: DisputeDeps, dispute: GatewayDispute): Promise<DisputeDetail> {
  await recordDispute(deps.db, dispute, dispute.updatedAt);
  const recorded = await findAdminDispute(deps.db, dispute.id);
  if (recorded === undefined) throw new Error(`dispute ${dispute.id} was not recorded`);
  return { dispute: recorded, evidence: dispute.evidence };
}

/** The dispute as the gateway has it; `dispute_not_found` when it does not know it. */
export async function readDispute(deps: DisputeDeps, id: string): Promise<DisputeActionOutcome> {
  const found = await deps.disputes.find(id);
  return found === null ? { kind: 'dispute_not_found' } : { kind: 'done', detail: await describe(deps, found) };
}

/** Runs a change on an open dispute, then answers the dispute as the gateway has it. */
async function changeOpenDispute<T>(
  deps: DisputeDeps,
  id: string,
  run: () => Promise<DisputeChange<T>>,
): Promise<DisputeActionOutcome> {
  const current = await deps.disputes.find(id);
  if (current === null) return { kind: 'dispute_not_found' };
  if (current.status !== 'open') return { kind: 'dispute_not_open' };
  const changed = await run();
  switch (changed.kind) {
    case 'done':
      return readDispute(deps, id);
    case 'not_found':
      return { kind: 'dispute_not_found' };
    case 'not_open':
      return { kind: 'dispute_not_open' };
    case 'refused':
      return { kind: 'gateway_refused', codes: changed.codes };
  }
}

/**
 * The merchant accepts the chargeback: the cardholder keeps the money. Accepting an accepted dispute answers it as it
 * is (a retry after a lost answer); any other closed dispute is `dispute_not_open`.
 */
export async function acceptDispute(deps: DisputeDeps, id: string): Promise<DisputeActionOutcome> {
  const current = await deps.disputes.find(id);
  if (current?.status === 'accepted') return { kind: 'done', detail: await describe(deps, current) };
  return changeOpenDispute(deps, id, () => deps.disputes.accept(id));
}

/** Adds text or a document to an open dispute's evidence (sent to the bank when it is finalized). */
export function addDisputeEvidence(deps: DisputeDeps, id: string, evidence: EvidenceInput): Promise<DisputeActionOutcome> {
  return changeOpenDispute(deps, id, () =>
    'text' in evidence ? deps.disputes.addTextEvidence(id, evidence.text) : deps.disputes.addFileEvidence(id, evidence.file),
  );
}

/** Sends the evidence to the bank: the gateway decides it (won or lost) or leaves it with the bank (`disputed`). */
export function finalizeDispute(deps: DisputeDeps, id: string): Promise<DisputeActionOutcome> {
  return changeOpenDispute(deps, id, () => deps.disputes.finalize(id));
}
