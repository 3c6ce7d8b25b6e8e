import type { Db } from '../db/connect.ts';
import type { DisputeChange, DisputeEvidence, DisputeGateway, EvidenceFile, GatewayDispute } from '../gateway/dispute-gateway.ts';
import { changesTo } from './audit-log.repository.ts';
import { findAdminDispute, recordDispute } from './disputes.query.ts';
import type { AdminDispute } from './disputes.query.ts';

// What the merchant does with a dispute, at the gateway (the source of truth), the shop's copy kept in step at once
// rather than at the next webhook.

export interface DisputeDeps {
  db: Db;
  disputes: DisputeGateway;
}

/** An item of a dispute's evidence, with what the shop knows of it: the document's name and who added it. */
export interface ListedEvidence extends DisputeEvidence {
  /** The document's name as it was uploaded (the gateway keeps none); null for text. */
  documentName: string | null;
  /** The admin who added it here; null when it was added elsewhere (the gateway's own control panel). */
  addedBy: string | null;
}

/** A dispute as the gateway has it now, with its evidence. */
export interface DisputeDetail {
  dispute: AdminDispute;
  /** The last day to answer, as the gateway has it now. */
  replyByDate: string | null;
  evidence: ListedEvidence[];
}

export type DisputeActionOutcome =
  /** `evidenceId`: the item the action added or removed (for the audit log), else null. */
  | { kind: 'done'; detail: DisputeDetail; evidenceId: string | null }
  | { kind: 'dispute_not_found' }
  /** The dispute has no such evidence (removed already, or never its own). */
  | { kind: 'evidence_not_found' }
  /** The dispute is closed (accepted, won, lost, or with the bank): it can no longer be accepted or answered. */
  | { kind: 'dispute_not_open' }
  | { kind: 'gateway_refused'; codes: string[] };

export type EvidenceInput = { text: string } | { file: EvidenceFile };

/** What the shop knows of an evidence item it added: written to the audit log as the answer leaves. */
type AddedHere = Pick<ListedEvidence, 'id' | 'documentName' | 'addedBy'>;

/** The dispute as recorded, its evidence with what the audit log (and `justAdded`, not in it yet) says of each. */
async function describe(deps: DisputeDeps, dispute: GatewayDispute, justAdded?: AddedHere): Promise<DisputeDetail> {
  await recordDispute(deps.db, dispute, dispute.updatedAt);
  const [recorded, added] = await Promise.all([
    findAdminDispute(deps.db, dispute.id),
    changesTo(deps.db, [dispute.id], ['disputes.evidence']),
  ]);
  if (recorded === undefined) throw new Error(`dispute ${dispute.id} was not recorded`);
  const known = new Map<unknown, AddedHere>(
    added.map(({ detail, actorEmail }) => [
      detail.evidenceId,
      {
        id: String(detail.evidenceId),
        documentName: typeof detail.documentName === 'string' ? detail.documentName : null,
        addedBy: actorEmail,
      },
    ]),
  );
  if (justAdded !== undefined) known.set(justAdded.id, justAdded);
  const evidence = dispute.evidence.map((item) => ({
    ...item,
    documentName: known.get(item.id)?.documentName ?? null,
    addedBy: known.get(item.id)?.addedBy ?? null,
  }));
  return { dispute: recorded, replyByDate: dispute.replyByDate, evidence };
}

/** The dispute as the gateway has it; `dispute_not_found` when it does not know it. */
export async function readDispute(deps: DisputeDeps, id: string): Promise<DisputeActionOutcome> {
  const found = await deps.disputes.find(id);
  return found === null ? { kind: 'dispute_not_found' } : { kind: 'done', detail: await describe(deps, found), evidenceId: null };
}

interface ChangeOptions<T> {
  /** The evidence the change added or removed. */
  evidenceOf?: (value: T) => string;
  /** What the shop knows of the evidence the change added. */
  addedHere?: (value: T) => AddedHere;
  /** What the gateway's "not found" means once the dispute was found: it vanished, or the evidence did. */
  notFound?: 'dispute_not_found' | 'evidence_not_found';
}

/** Runs a change on an open dispute, then answers the dispute as the gateway has it. */
async function changeOpenDispute<T>(
  deps: DisputeDeps,
  id: string,
  run: () => Promise<DisputeChange<T>>,
  { evidenceOf, addedHere, notFound = 'dispute_not_found' }: ChangeOptions<T> = {},
): Promise<DisputeActionOutcome> {
  const current = await deps.disputes.find(id);
  if (current === null) return { kind: 'dispute_not_found' };
  if (current.status !== 'open') return { kind: 'dispute_not_open' };
  const changed = await run();
  switch (changed.kind) {
    case 'done': {
      const found = await deps.disputes.find(id);
      if (found === null) return { kind: 'dispute_not_found' };
      return {
        kind: 'done',
        detail: await describe(deps, found, addedHere?.(changed.value)),
        evidenceId: evidenceOf?.(changed.value) ?? null,
      };
    }
    case 'not_found':
      return { kind: notFound };
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
  if (current?.status === 'accepted') return { kind: 'done', detail: await describe(deps, current), evidenceId: null };
  return changeOpenDispute(deps, id, () => deps.disputes.accept(id));
}

/**
 * Adds text or a document to an open dispute's evidence (sent to the bank when it is finalized); `addedBy` is the
 * admin's email.
 */
export function addDisputeEvidence(
  deps: DisputeDeps,
  id: string,
  evidence: EvidenceInput,
  addedBy: string | null,
): Promise<DisputeActionOutcome> {
  return changeOpenDispute(
    deps,
    id,
    () =>
      'text' in evidence ? deps.disputes.addTextEvidence(id, evidence.text) : deps.disputes.addFileEvidence(id, evidence.file),
    {
      evidenceOf: (added) => added.id,
      addedHere: (added) => ({ id: added.id, documentName: 'file' in evidence ? evidence.file.name : null, addedBy }),
    },
  );
}

/** Takes an item out of an open dispute's evidence (before it is submitted); `evidence_not_found` if it is not there. */
export function removeDisputeEvidence(deps: DisputeDeps, id: string, evidenceId: string): Promise<DisputeActionOutcome> {
  return changeOpenDispute(deps, id, () => deps.disputes.removeEvidence(id, evidenceId), {
    evidenceOf: () => evidenceId,
    notFound: 'evidence_not_found',
  });
}

/** Sends the evidence to the bank: the gateway decides it (won or lost) or leaves it with the bank (`disputed`). */
export function finalizeDispute(deps: DisputeDeps, id: string): Promise<DisputeActionOutcome> {
  return changeOpenDispute(deps, id, () => deps.disputes.finalize(id));
}
