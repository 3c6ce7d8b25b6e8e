import { addDays, calendarDate } from './billing-calendar.ts';
import type { CalendarDate } from './billing-calendar.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome } from './errors.ts';
import type { EventSink } from './events.ts';
import { randomId } from './ids.ts';
import type { Transaction } from './transactions.ts';
import type { Collection } from '../store/store.ts';
import type { DocumentUpload } from './document-uploads.ts';

// Disputes as the provider's sandbox makes them (its "Testing and Go Live" guide for disputes): a sale with the test
// card 4023898493988028 settles at once and gets an open chargeback; the merchant accepts it (accepted) or adds
// text evidence and finalizes it. Evidence "compelling_evidence" wins it, "losing_evidence" loses it; anything else
// leaves it `disputed` (with the bank, as a real answer would stay for weeks). A document uploaded as evidence
// (documentUpload.create, then addFileEvidence) is kept as evidence with no comment.

export const DISPUTE_STATUSES = ['open', 'accepted', 'disputed', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Sale amounts the provider's sandbox gives their own reason codes (the rest: 83, Visa fraud). */
const REASON_CODE_BY_AMOUNT: Readonly<Record<string, string>> = {
  '83.00': '83',
  '10.40': '1040',
  '13.10': '1310',
  '70.30': '7030',
};
/** A chargeback must be answered within this many days of its receipt (the provider's sandbox gives about three weeks). */
const REPLY_DAYS = 20;

export interface DisputeEvidence {
  id: string;
  /** The text evidence; null for a document. */
  comment: string | null;
  /** The document uploaded as this evidence; null for text. */
  documentUploadId: string | null;
  category: string | null;
  sequenceNumber: number | null;
  createdAt: Date;
}

export interface DisputeStatusEvent {
  status: DisputeStatus;
  timestamp: Date;
  effectiveDate: CalendarDate;
}

export interface Dispute {
  id: string;
  transactionId: string;
  /** The disputed sale as it was when the dispute was opened. */
  transaction: { id: string; amount: string; createdAt: Date; orderId: string | null };
  amount: string;
  amountWon: string;
  currencyIsoCode: string;
  merchantAccountId: string;
  customerId: string | null;
  kind: 'chargeback';
  reason: 'fraud';
  reasonCode: string;
  status: DisputeStatus;
  caseNumber: string;
  referenceNumber: string;
  receivedDate: CalendarDate;
  replyByDate: CalendarDate;
  dateOpened: CalendarDate;
  dateWon: CalendarDate | null;
  evidence: DisputeEvidence[];
  statusHistory: DisputeStatusEvent[];
  createdAt: Date;
  updatedAt: Date;
}

const DISPUTE_EVENT: Partial<Record<DisputeStatus, 'dispute_accepted' | 'dispute_won' | 'dispute_lost'>> = {
  accepted: 'dispute_accepted',
  won: 'dispute_won',
  lost: 'dispute_lost',
};

const DISPUTE = ['dispute'] as const;
const errors = {
  accept: validationError(DISPUTE, 'status', '95704', 'Disputes can only be accepted when they are in an Open state'),
  evidence: validationError(DISPUTE, 'status', '95701', 'Evidence can only be attached to disputes that are in an Open state'),
  removeEvidence: validationError(
    DISPUTE,
    'status',
    '95702',
    'Evidence can only be removed from disputes that are in an Open state',
  ),
  finalize: validationError(DISPUTE, 'status', '95705', 'Disputes can only be finalized when they are in an Open state'),
  content: validationError(['dispute', 'evidence'], 'comments', '95708', 'Content cannot be blank'),
  document: validationError(
    ['dispute', 'evidence'],
    'document_upload_id',
    '95703',
    'Only evidence documents can be attached to disputes',
  ),
};

export interface TextEvidenceParams {
  comments?: unknown;
  category?: unknown;
  sequenceNumber?: unknown;
}

export class Disputes {
  constructor(
    private readonly records: Collection<Dispute>,
    private readonly events: EventSink,
  ) {}

  find(id: string): Dispute | undefined {
    return this.records.get(id);
  }

  /** Opens a chargeback on a settled sale (the caller settles it first). */
  openChargeback(sale: Transaction, now: Date): Dispute {
    let id: string;
    do id = randomId(16);
    while (this.records.has(id));
    const today = calendarDate(now);
    const dispute: Dispute = {
      id,
      transactionId: sale.id,
      transaction: { id: sale.id, amount: sale.amount, createdAt: sale.createdAt, orderId: sale.orderId },
      amount: sale.amount,
      amountWon: '0.00',
      currencyIsoCode: sale.currencyIsoCode,
      merchantAccountId: sale.merchantAccountId,
      customerId: sale.customerId,
      kind: 'chargeback',
      reason: 'fraud',
      reasonCode: REASON_CODE_BY_AMOUNT[sale.amount] ?? '83',
      status: 'open',
      caseNumber: `CB${randomId(8).toUpperCase()}`,
      referenceNumber: randomId(12),
      receivedDate: today,
      replyByDate: addDays(today, REPLY_DAYS),
      dateOpened: today,
      dateWon: null,
      evidence: [],
      statusHistory: [{ status: 'open', timestamp: now, effectiveDate: today }],
      createdAt: now,
      updatedAt: now,
    };
    this.records.set(id, dispute);
    this.events({ kind: 'dispute_opened', dispute }, now);
    return dispute;
  }

  accept(dispute: Dispute, now: Date): Outcome<Dispute> {
    if (dispute.status !== 'open') return invalid([errors.accept]);
    return { ok: true, value: this.change(dispute, 'accepted', now) };
  }

  addTextEvidence(dispute: Dispute, params: TextEvidenceParams, now: Date): Outcome<DisputeEvidence> {
    if (dispute.status !== 'open') return invalid([errors.evidence]);
    if (typeof params.comments !== 'string' || params.comments.trim() === '') return invalid([errors.content]);
    const sequence = Number(params.sequenceNumber);
    const evidence: DisputeEvidence = {
      id: randomId(16),
      comment: params.comments,
      documentUploadId: null,
      category: typeof params.category === 'string' ? params.category : null,
      sequenceNumber: params.sequenceNumber === undefined || !Number.isInteger(sequence) ? null : sequence,
      createdAt: now,
    };
    dispute.evidence.push(evidence);
    dispute.updatedAt = now;
    this.records.set(dispute.id, dispute);
    return { ok: true, value: evidence };
  }

  /** A document uploaded as evidence (`document` undefined: no such upload). */
  addFileEvidence(
    dispute: Dispute,
    document: DocumentUpload | undefined,
    category: unknown,
    now: Date,
  ): Outcome<DisputeEvidence> {
    if (dispute.status !== 'open') return invalid([errors.evidence]);
    if (document === undefined || document.kind !== 'evidence_document') return invalid([errors.document]);
    const evidence: DisputeEvidence = {
      id: randomId(16),
      comment: null,
      documentUploadId: document.id,
      category: typeof category === 'string' ? category : null,
      sequenceNumber: null,
      createdAt: now,
    };
    dispute.evidence.push(evidence);
    dispute.updatedAt = now;
    this.records.set(dispute.id, dispute);
    return { ok: true, value: evidence };
  }

  /** false: no such evidence on this dispute. */
  removeEvidence(dispute: Dispute, evidenceId: string, now: Date): Outcome<boolean> {
    if (dispute.status !== 'open') return invalid([errors.removeEvidence]);
    const index = dispute.evidence.findIndex((evidence) => evidence.id === evidenceId);
    if (index < 0) return { ok: true, value: false };
    dispute.evidence.splice(index, 1);
    dispute.updatedAt = now;
    this.records.set(dispute.id, dispute);
    return { ok: true, value: true };
  }

  finalize(dispute: Dispute, now: Date): Outcome<Dispute> {
    if (dispute.status !== 'open') return invalid([errors.finalize]);
    const comments = dispute.evidence.map((evidence) => evidence.comment);
    if (comments.includes('compelling_evidence')) {
      dispute.amountWon = dispute.amount;
      dispute.dateWon = calendarDate(now);
      return { ok: true, value: this.change(dispute, 'won', now) };
    }
    return { ok: true, value: this.change(dispute, comments.includes('losing_evidence') ? 'lost' : 'disputed', now) };
  }

  private change(dispute: Dispute, status: DisputeStatus, now: Date): Dispute {
    dispute.status = status;
    dispute.statusHistory.push({ status, timestamp: now, effectiveDate: calendarDate(now) });
    dispute.updatedAt = now;
    this.records.set(dispute.id, dispute);
    const kind = DISPUTE_EVENT[status];
    if (kind !== undefined) this.events({ kind, dispute }, now);
    return dispute;
  }
}
