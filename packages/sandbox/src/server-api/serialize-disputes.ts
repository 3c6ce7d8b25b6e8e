import type { Dispute, DisputeEvidence } from '../core/disputes.ts';
import type { DocumentUpload } from '../core/document-uploads.ts';
import { XmlList } from './xml.ts';
import type { XmlElement } from './xml.ts';

// Disputes and their evidence as the provider's XML (the fields the SDK's Dispute and TransactionDetails read).

export function evidenceXml(evidence: DisputeEvidence): XmlElement {
  return {
    id: evidence.id,
    comment: evidence.comment,
    category: evidence.category,
    'sequence-number': evidence.sequenceNumber,
    'created-at': evidence.createdAt,
    'sent-to-processor-at': null,
    // The provider links a document evidence to its file; the sandbox keeps no file, so it names the upload.
    url: evidence.documentUploadId === null ? null : `/document_uploads/${evidence.documentUploadId}`,
  };
}

export function documentUploadXml(upload: DocumentUpload): XmlElement {
  return {
    id: upload.id,
    kind: upload.kind,
    name: upload.name,
    'content-type': upload.contentType,
    size: upload.size,
    'created-at': upload.createdAt,
  };
}

export function disputeXml(dispute: Dispute): XmlElement {
  return {
    id: dispute.id,
    amount: dispute.amount,
    'amount-disputed': dispute.amount,
    'amount-won': dispute.amountWon,
    'case-number': dispute.caseNumber,
    'chargeback-protection-level': null,
    'created-at': dispute.createdAt,
    'currency-iso-code': dispute.currencyIsoCode,
    'date-opened': dispute.dateOpened,
    'date-won': dispute.dateWon,
    evidence: new XmlList('evidence', dispute.evidence.map(evidenceXml)),
    kind: dispute.kind,
    'merchant-account-id': dispute.merchantAccountId,
    'original-dispute-id': null,
    reason: dispute.reason,
    'reason-code': dispute.reasonCode,
    'reason-description': 'Fraud',
    'received-date': dispute.receivedDate,
    'reference-number': dispute.referenceNumber,
    'reply-by-date': dispute.replyByDate,
    status: dispute.status,
    'status-history': new XmlList(
      'status-history',
      dispute.statusHistory.map((event) => ({
        status: event.status,
        timestamp: event.timestamp,
        'effective-date': event.effectiveDate,
      })),
    ),
    transaction: {
      id: dispute.transaction.id,
      amount: dispute.transaction.amount,
      'created-at': dispute.transaction.createdAt,
      'order-id': dispute.transaction.orderId,
      'purchase-order-number': null,
      'payment-instrument-subtype': 'Visa',
    },
    'updated-at': dispute.updatedAt,
  };
}
