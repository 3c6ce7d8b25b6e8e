import { invalid, validationError } from './errors.ts';
import type { Outcome } from './errors.ts';
import { randomId } from './ids.ts';
import type { Collection } from '../store/store.ts';

// Documents uploaded with the SDK's documentUpload.create, as the provider takes them: evidence for a dispute, a PDF,
// JPEG or PNG of at most 4 MB. The sandbox keeps what the gateway reports of a document, not its bytes (nothing here
// reads them back).

export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
const DOCUMENT_TYPES: ReadonlySet<string> = new Set(['application/pdf', 'image/jpeg', 'image/png']);

export interface DocumentUpload {
  id: string;
  kind: 'evidence_document';
  name: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

export interface DocumentUploadParams {
  kind: string | undefined;
  file: { name: string; contentType: string; size: number } | undefined;
}

const UPLOAD = ['document_upload'] as const;
const errors = {
  kind: validationError(UPLOAD, 'kind', '84901', 'Document kind is invalid.'),
  tooLarge: validationError(UPLOAD, 'file', '84902', 'File size is limited to 4 MB.'),
  type: validationError(UPLOAD, 'file', '84903', 'Only PDF, JPEG and PNG files are accepted.'),
  empty: validationError(UPLOAD, 'file', '84906', 'File cannot be empty.'),
};

export class DocumentUploads {
  constructor(private readonly records: Collection<DocumentUpload>) {}

  find(id: string): DocumentUpload | undefined {
    return this.records.get(id);
  }

  create(params: DocumentUploadParams, now: Date): Outcome<DocumentUpload> {
    if (params.kind !== 'evidence_document') return invalid([errors.kind]);
    const file = params.file;
    if (file === undefined || file.size === 0) return invalid([errors.empty]);
    if (!DOCUMENT_TYPES.has(file.contentType)) return invalid([errors.type]);
    if (file.size > MAX_DOCUMENT_BYTES) return invalid([errors.tooLarge]);
    let id: string;
    do id = randomId(16);
    while (this.records.has(id));
    const upload: DocumentUpload = {
      id,
      kind: 'evidence_document',
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      createdAt: now,
    };
    this.records.set(id, upload);
    return { ok: true, value: upload };
  }
}
