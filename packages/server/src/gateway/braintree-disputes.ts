import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { callGateway } from './braintree.ts';
import type {
  DisputeChange,
  DisputeEvidence,
  DisputeGateway,
  EvidenceFile,
  EvidenceFileType,
  GatewayDispute,
} from './dispute-gateway.ts';

/** The gateway answers only open disputes: 95701 add evidence, 95702 remove it, 95704 accept, 95705 finalize. */
const NOT_OPEN = new Set(['95701', '95702', '95704', '95705']);

/** The SDK's file name decides the part's content type (http.js): the extension of each type it knows. */
const EXTENSION: Record<EvidenceFileType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/** The SDK's dispute calls and answers as they are at run time (@types/braintree lacks documentUpload and some). */
type Answer<T> = { success: true } & T;
type Failure = { success: false; errors: braintree.ValidationErrorsCollection };
interface SdkEvidence {
  id: string;
  comment: string | null;
  url: string | null;
  createdAt: unknown;
}
interface SdkDispute {
  id: string;
  status: string;
  kind: string;
  reason: string;
  amountDisputed: string | number;
  currencyIsoCode: string;
  transaction: { id: string };
  evidence?: SdkEvidence[] | null;
  replyByDate?: unknown;
  updatedAt: unknown;
}
interface SdkDisputes {
  find(id: string): Promise<{ dispute?: SdkDispute } & SdkDispute>;
  accept(id: string): Promise<Answer<{ dispute: SdkDispute }> | Failure>;
  finalize(id: string): Promise<Answer<Record<string, never>> | Failure>;
  addTextEvidence(id: string, content: string): Promise<Answer<{ evidence: SdkEvidence }> | Failure>;
  addFileEvidence(id: string, request: { documentId: string }): Promise<Answer<{ evidence: SdkEvidence }> | Failure>;
  removeEvidence(id: string, evidenceId: string): Promise<Answer<Record<string, never>> | Failure>;
}
interface SdkDocumentUploads {
  create(request: { kind: string; file: NodeJS.ReadableStream }): Promise<Answer<{ documentUpload: { id: string } }> | Failure>;
}

function iso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** The SDK gives a date as text (YYYY-MM-DD) or a Date: the calendar date, or null without one. */
function calendarDate(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

function toEvidence(evidence: SdkEvidence): DisputeEvidence {
  return { id: evidence.id, comment: evidence.comment ?? null, url: evidence.url ?? null, createdAt: iso(evidence.createdAt) };
}

function toDispute(dispute: SdkDispute): GatewayDispute {
  return {
    id: dispute.id,
    status: dispute.status,
    kind: dispute.kind,
    reason: dispute.reason,
    amount: String(dispute.amountDisputed),
    currency: dispute.currencyIsoCode,
    transactionId: dispute.transaction.id,
    evidence: (dispute.evidence ?? []).map(toEvidence),
    replyByDate: calendarDate(dispute.replyByDate),
    updatedAt: iso(dispute.updatedAt),
  };
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && (error as { type?: string }).type === 'notFoundError';
}

/** A call's answer as a change; "not found" is an answer, anything else thrown is an outage. */
async function change<A, T>(
  call: () => Promise<Answer<A> | Failure>,
  read: (answer: Answer<A>) => T | Promise<T>,
): Promise<DisputeChange<T>> {
  return callGateway(async () => {
    let answer: Answer<A> | Failure;
    try {
      answer = await call();
    } catch (error) {
      if (isNotFound(error)) return { kind: 'not_found' };
      throw error;
    }
    if (!answer.success) {
      const codes = answer.errors.deepErrors().map((error) => String(error.code));
      return codes.some((code) => NOT_OPEN.has(code)) ? { kind: 'not_open' } : { kind: 'refused', codes };
    }
    return { kind: 'done', value: await read(answer) };
  });
}

export class BraintreeDisputesAdapter implements DisputeGateway {
  private readonly disputes: SdkDisputes;
  private readonly uploads: SdkDocumentUploads;

  constructor(client: braintree.BraintreeGateway) {
    const sdk = client as unknown as { dispute: SdkDisputes; documentUpload: SdkDocumentUploads };
    this.disputes = sdk.dispute;
    this.uploads = sdk.documentUpload;
  }

  find(id: string): Promise<GatewayDispute | null> {
    return callGateway(async () => {
      try {
        const found = await this.disputes.find(id);
        return toDispute(found.dispute ?? found);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    });
  }

  accept(id: string): Promise<DisputeChange<GatewayDispute>> {
    return change(
      () => this.disputes.accept(id),
      (answer) => toDispute(answer.dispute),
    );
  }

  addTextEvidence(id: string, text: string): Promise<DisputeChange<DisputeEvidence>> {
    return change(
      () => this.disputes.addTextEvidence(id, text),
      (answer) => toEvidence(answer.evidence),
    );
  }

  async addFileEvidence(id: string, file: EvidenceFile): Promise<DisputeChange<DisputeEvidence>> {
    // The SDK uploads a file it reads from disk by the stream's path: the document goes through a private temp folder.
    const folder = await mkdtemp(join(tmpdir(), 'kassa-evidence-'));
    try {
      const path = join(folder, `evidence.${EXTENSION[file.contentType]}`);
      await writeFile(path, file.content, { mode: 0o600 });
      // The SDK reads the file by its path and never the stream: closed here so it holds no descriptor.
      const stream = createReadStream(path);
      const uploaded = await change(
        () => this.uploads.create({ kind: 'evidence_document', file: stream }),
        (answer) => answer.documentUpload.id,
      ).finally(() => stream.destroy());
      if (uploaded.kind !== 'done') return uploaded;
      return await change(
        () => this.disputes.addFileEvidence(id, { documentId: uploaded.value }),
        (answer) => toEvidence(answer.evidence),
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** The SDK answers an unknown evidence id (or dispute) with notFoundError: `not_found`. */
  removeEvidence(id: string, evidenceId: string): Promise<DisputeChange<null>> {
    return change(
      () => this.disputes.removeEvidence(id, evidenceId),
      () => null,
    );
  }

  /** Sends the evidence to the bank; the dispute as the gateway has it afterwards. */
  finalize(id: string): Promise<DisputeChange<GatewayDispute>> {
    return change(
      () => this.disputes.finalize(id),
      async () => {
        const found = await this.find(id);
        if (found === null) throw new Error(`dispute ${id} vanished at the gateway while it was finalized`);
        return found;
      },
    );
  }
}
