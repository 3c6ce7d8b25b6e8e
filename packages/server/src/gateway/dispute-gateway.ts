/**
 * The gateway's disputes (chargebacks) as the merchant answers them: accept one (the money goes back to the
 * cardholder), or contest it with evidence (text or a document) and then finalize it (the evidence goes to the bank).
 * One adapter: the official braintree SDK.
 */
export interface DisputeGateway {
  /** null when the gateway does not know the dispute. */
  find(id: string): Promise<GatewayDispute | null>;
  accept(id: string): Promise<DisputeChange<GatewayDispute>>;
  addTextEvidence(id: string, text: string): Promise<DisputeChange<DisputeEvidence>>;
  /** Uploads the document (`documentUpload.create`), then attaches it (`dispute.addFileEvidence`). */
  addFileEvidence(id: string, file: EvidenceFile): Promise<DisputeChange<DisputeEvidence>>;
  /** Takes an item out of an open dispute's evidence before it is finalized; `not_found` when it has no such item. */
  removeEvidence(id: string, evidenceId: string): Promise<DisputeChange<null>>;
  finalize(id: string): Promise<DisputeChange<GatewayDispute>>;
}

/** The documents the gateway takes as evidence (gateway.md: PDF, JPEG or PNG, at most 4 MB). */
export const EVIDENCE_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type EvidenceFileType = (typeof EVIDENCE_FILE_TYPES)[number];
export const MAX_EVIDENCE_FILE_BYTES = 4 * 1024 * 1024;

export interface EvidenceFile {
  name: string;
  contentType: EvidenceFileType;
  content: Buffer;
}

/**
 * What the gateway said: done; `not_open` (it answers only open disputes: 95701, 95702, 95704, 95705); `not_found`; or
 * `refused` with its error codes (e.g. a document it does not take).
 */
export type DisputeChange<T> =
  | { kind: 'done'; value: T }
  | { kind: 'not_open' }
  | { kind: 'not_found' }
  | { kind: 'refused'; codes: string[] };

export interface DisputeEvidence {
  id: string;
  /** The text; null for a document. */
  comment: string | null;
  /** Where the gateway keeps the document; null for text. */
  url: string | null;
  createdAt: string;
}

export interface GatewayDispute {
  id: string;
  /** The provider's status: `open`, `accepted`, `disputed`, `won`, `lost`, ... */
  status: string;
  kind: string;
  reason: string;
  /** Decimal string at the gateway edge, as the SDK gives it. */
  amount: string;
  currency: string;
  transactionId: string;
  evidence: DisputeEvidence[];
  /** The last day the merchant can answer (YYYY-MM-DD), when the gateway gives one. */
  replyByDate: string | null;
  /** When the gateway last changed it (ISO 8601). */
  updatedAt: string;
}
