import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, gatewayFor, tokenizeCard } from '../testing/sandbox.ts';
import { startSandboxWithReceiver } from '../testing/webhook-receiver.ts';
import type { SandboxWithReceiver, WebhookReceiver } from '../testing/webhook-receiver.ts';

// Disputes through the OFFICIAL SDK: the provider's dispute test card opens a chargeback on a sale; the merchant
// finds, accepts, or answers it with evidence; each outcome is told by a webhook to a real local receiver.

let receiver: WebhookReceiver;
let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

let started: SandboxWithReceiver;

beforeAll(async () => {
  started = await startSandboxWithReceiver();
  ({ sandbox, receiver } = started);
  gateway = gatewayFor(sandbox);
});
afterAll(() => started.close());
beforeEach(() => started.forget());

/** A sale with the dispute test card 4023898493988028, tokenized as the hosted fields do. */
async function disputedSale(amount = '10.00'): Promise<{ transaction: braintree.Transaction; disputeId: string }> {
  const token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
  const nonce = await tokenizeCard(token, { number: '4023898493988028', cvv: '123' });
  const { transaction } = await gateway.transaction.sale({ amount, paymentMethodNonce: nonce });
  const [dispute] = await searchDisputes({ transactionId: transaction.id });
  if (dispute === undefined) throw new Error('no dispute opened');
  return { transaction, disputeId: dispute.id };
}

/** What the SDK's dispute.search takes; @types/braintree declares it without the callback form. */
type DisputeSearch = (
  build: (search: { transactionId(): { is(value: string): void }; status(): { in(values: string[]): void } }) => void,
  done: (error: unknown, disputes: Array<FoundDispute | null>) => void,
) => void;

/** The SDK's Dispute as it is at run time (@types/braintree lacks transactionDetails and types status narrowly). */
interface FoundDispute {
  id: string;
  status: string;
  kind: string;
  reason: string;
  reasonCode: string;
  amountDisputed: string;
  transactionDetails: { id: string };
  evidence?: Array<{ id: string; comment: string | null }> | null;
}

function searchDisputes(criteria: { transactionId?: string; status?: string[] }): Promise<FoundDispute[]> {
  const search = gateway.dispute.search.bind(gateway.dispute) as unknown as DisputeSearch;
  return new Promise((resolve, reject) => {
    search(
      (builder) => {
        if (criteria.transactionId !== undefined) builder.transactionId().is(criteria.transactionId);
        if (criteria.status !== undefined) builder.status().in(criteria.status);
      },
      (error, found) => (error ? reject(error) : resolve(found.filter((dispute): dispute is FoundDispute => dispute !== null))),
    );
  });
}

async function disputeWebhooks(): Promise<Array<[string, string | undefined]>> {
  await sandbox.deliverWebhooks();
  return Promise.all(
    receiver.received.map(async (webhook) => {
      const notification = (await gateway.webhookNotification.parse(webhook.signature, webhook.payload)) as unknown as {
        kind: string;
        dispute?: FoundDispute;
      };
      return [notification.kind, notification.dispute?.id] as [string, string | undefined];
    }),
  ).then((told) => told.filter(([kind]) => kind.startsWith('dispute_')));
}

/** @types/braintree does not declare these dispute calls' answers as the SDK gives them. */
type Answer<T> = { success: boolean; errors?: braintree.ValidationErrorsCollection } & T;
interface DisputeCalls {
  accept(id: string): Promise<Answer<{ dispute: FoundDispute }>>;
  finalize(id: string): Promise<Answer<{ dispute: FoundDispute }>>;
  addTextEvidence(id: string, content: string): Promise<Answer<{ evidence: { id: string; comment: string } }>>;
  addFileEvidence(
    id: string,
    request: { documentId: string; category?: string },
  ): Promise<Answer<{ evidence: { id: string; comment: string | null; url: string | null } }>>;
  find(id: string): Promise<{ dispute: FoundDispute }>;
  removeEvidence(id: string, evidenceId: string): Promise<Answer<object>>;
}

interface DocumentUploads {
  create(request: {
    kind: string;
    file: NodeJS.ReadableStream;
  }): Promise<Answer<{ documentUpload: { id: string; kind: string; name: string; contentType: string; size: number } }>>;
}

function codes(answer: Answer<unknown>): string[] {
  return answer.errors?.deepErrors().map((error) => error.code) ?? [];
}
const disputes = (): DisputeCalls => gateway.dispute as unknown as DisputeCalls;

describe('a chargeback on the dispute test card', () => {
  it('settles the sale at once and opens a dispute for its amount, told by dispute_opened', async () => {
    const { transaction, disputeId } = await disputedSale('83.00');
    expect(transaction.status).toBe('settled');
    const { dispute } = await disputes().find(disputeId);
    expect([dispute.status, dispute.kind, dispute.reason, dispute.reasonCode, dispute.amountDisputed]).toEqual([
      'open',
      'chargeback',
      'fraud',
      '83',
      '83.00',
    ]);
    expect(dispute.transactionDetails.id).toBe(transaction.id);
    expect(await disputeWebhooks()).toEqual([['dispute_opened', disputeId]]);
  });

  it('accepts an open dispute (then 95704 on a second accept)', async () => {
    const { disputeId } = await disputedSale();
    const accepted = await disputes().accept(disputeId);
    expect([accepted.success, accepted.dispute.status]).toEqual([true, 'accepted']);
    expect(codes(await disputes().accept(disputeId))).toEqual(['95704']);
    expect((await disputeWebhooks()).map(([kind]) => kind)).toEqual(['dispute_opened', 'dispute_accepted']);
  });

  it('is won with "compelling_evidence" and lost with "losing_evidence" once finalized; 95701 / 95705 afterwards', async () => {
    const won = await disputedSale();
    const evidence = await disputes().addTextEvidence(won.disputeId, 'compelling_evidence');
    expect([evidence.success, evidence.evidence.comment]).toEqual([true, 'compelling_evidence']);
    expect((await disputes().finalize(won.disputeId)).dispute.status).toBe('won');
    expect(codes(await disputes().addTextEvidence(won.disputeId, 'more'))).toEqual(['95701']);
    expect(codes(await disputes().finalize(won.disputeId))).toEqual(['95705']);

    const lost = await disputedSale();
    await disputes().addTextEvidence(lost.disputeId, 'losing_evidence');
    expect((await disputes().finalize(lost.disputeId)).dispute.status).toBe('lost');
    expect(await disputeWebhooks()).toEqual([
      ['dispute_opened', won.disputeId],
      ['dispute_won', won.disputeId],
      ['dispute_opened', lost.disputeId],
      ['dispute_lost', lost.disputeId],
    ]);
  });

  it('takes an uploaded PDF as evidence (documentUpload.create, addFileEvidence); refuses other files and kinds', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sandbox-evidence-'));
    try {
      const upload = async (name: string, content: string, kind = 'evidence_document') => {
        await writeFile(join(folder, name), content);
        // @types/braintree does not declare documentUpload.
        const uploads = (gateway as unknown as { documentUpload: DocumentUploads }).documentUpload;
        return uploads.create({ kind, file: createReadStream(join(folder, name)) });
      };
      const pdf = await upload('receipt.pdf', '%PDF-1.4 signed delivery receipt');
      expect(pdf.success).toBe(true);
      expect(pdf.documentUpload).toMatchObject({
        kind: 'evidence_document',
        name: 'receipt.pdf',
        contentType: 'application/pdf',
        size: 32,
      });
      const { disputeId } = await disputedSale();
      const added = await disputes().addFileEvidence(disputeId, { documentId: pdf.documentUpload.id });
      expect([added.success, added.evidence.comment, added.evidence.url]).toEqual([
        true,
        null,
        `/document_uploads/${pdf.documentUpload.id}`,
      ]);
      const { dispute } = await disputes().find(disputeId);
      expect((dispute as unknown as { evidence: { id: string }[] }).evidence.map((e) => e.id)).toEqual([added.evidence.id]);

      expect(codes(await upload('notes.txt', 'plain text'))).toEqual(['84903']);
      expect(codes(await upload('empty.pdf', ''))).toEqual(['84906']);
      expect(codes(await upload('other.pdf', '%PDF', 'identity_document'))).toEqual(['84901']);
      expect(codes(await disputes().addFileEvidence(disputeId, { documentId: 'nosuchdocument' }))).toEqual(['95703']);
      await disputes().accept(disputeId);
      expect(codes(await disputes().addFileEvidence(disputeId, { documentId: pdf.documentUpload.id }))).toEqual(['95701']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('takes evidence out of an open dispute (dispute.removeEvidence); notFoundError for an unknown item; 95702 once closed', async () => {
    const { disputeId } = await disputedSale();
    const kept = await disputes().addTextEvidence(disputeId, 'Signed for at the door.');
    const mistaken = await disputes().addTextEvidence(disputeId, 'Wrong order attached.');
    expect((await disputes().removeEvidence(disputeId, mistaken.evidence.id)).success).toBe(true);
    const { dispute } = await disputes().find(disputeId);
    expect(dispute.evidence?.map((item) => item.comment)).toEqual(['Signed for at the door.']);
    await expect(disputes().removeEvidence(disputeId, mistaken.evidence.id)).rejects.toMatchObject({ type: 'notFoundError' });

    await disputes().accept(disputeId);
    expect(codes(await disputes().removeEvidence(disputeId, kept.evidence.id))).toEqual(['95702']);
  });

  it('is found by dispute.search on status, and answers notFoundError for an unknown id', async () => {
    const { disputeId } = await disputedSale();
    const open = await searchDisputes({ status: ['open'] });
    expect(open.map((dispute) => dispute.id)).toContain(disputeId);
    expect(open.every((dispute) => dispute.status === 'open')).toBe(true);
    await expect(disputes().find('nosuchdispute')).rejects.toMatchObject({ type: 'notFoundError' });
  });
});
