import { useState, type FormEvent } from 'react';
import { adminApi, type DisputeEvidenceInput } from '../../../api/admin-client.ts';
import type { AdminDispute, DisputeDetail } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { ConfirmDialog } from '../../account/confirm-dialog.tsx';
import { DialogActions, useKeyedAction, useModal } from '../parts/dialog.tsx';
import { evidenceItemName, type EvidenceItem } from './evidence-list.tsx';

/** What the gateway takes as a document (the server says the same: PDF, JPEG or PNG, at most 4 MB). */
const DOCUMENT_TYPES: ReadonlySet<string> = new Set(['application/pdf', 'image/jpeg', 'image/png']);
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/** The gateway's snake_case words (`product_not_received`) as the merchant reads them. */
export const disputeWords = (text: string) => text.replaceAll('_', ' ');

/** How the merchant names a dispute in a sentence: its amount and the order it disputes. */
export function disputeName(dispute: AdminDispute): string {
  return adminMessages.disputeOf(formatMoney(dispute.amount), dispute.payment?.orderNumber ?? null);
}

/**
 * The question before a dispute is accepted or its evidence submitted: neither can be undone. One Idempotency-Key per
 * opening, so Confirm again after a lost answer is the same request.
 */
export function DisputeChangeDialog({
  action,
  dispute,
  onClose,
  onDone,
}: {
  action: 'accept' | 'finalize';
  dispute: AdminDispute;
  onClose: () => void;
  onDone: (detail: DisputeDetail) => void;
}) {
  const { busy, error, confirm } = useKeyedAction((key) => adminApi.changeDispute(dispute.id, action, key), onDone);
  const name = disputeName(dispute);
  const accept = action === 'accept';
  return (
    <ConfirmDialog
      title={accept ? adminMessages.acceptDisputeTitle : adminMessages.submitEvidenceTitle}
      description={accept ? adminMessages.acceptDisputeIntro(name) : adminMessages.submitEvidenceIntro(name)}
      confirmLabel={
        busy ? adminMessages.working : accept ? adminMessages.confirmAcceptDispute : adminMessages.confirmSubmitEvidence
      }
      cancelLabel={accept ? adminMessages.keepDispute : adminMessages.keepEditingEvidence}
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

/**
 * The question before an item leaves the evidence (it can be added again, but the merchant may not have its file at
 * hand). One Idempotency-Key per opening.
 */
export function RemoveEvidenceDialog({
  dispute,
  item,
  onClose,
  onDone,
}: {
  dispute: AdminDispute;
  item: EvidenceItem;
  onClose: () => void;
  onDone: (detail: DisputeDetail) => void;
}) {
  const { busy, error, confirm } = useKeyedAction((key) => adminApi.removeDisputeEvidence(dispute.id, item.id, key), onDone);
  return (
    <ConfirmDialog
      title={adminMessages.removeEvidenceTitle}
      description={adminMessages.removeEvidenceIntro(evidenceItemName(item))}
      confirmLabel={busy ? adminMessages.working : adminMessages.confirmRemoveEvidence}
      cancelLabel={adminMessages.keepEvidence}
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

/** A document's bytes as base64 (what the API takes in JSON). */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Evidence for an open dispute: a note or a document, added at the gateway (sent to the bank only when the evidence is
 * submitted). A modal <dialog>; one Idempotency-Key per opening, so Add again after a lost answer adds it once.
 */
export function EvidenceDialog({
  dispute,
  onClose,
  onDone,
}: {
  dispute: AdminDispute;
  onClose: () => void;
  onDone: (detail: DisputeDetail) => void;
}) {
  const dialog = useModal();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const { busy, error, fail, confirm } = useKeyedAction(async (key) => {
    const evidence: DisputeEvidenceInput =
      file === null
        ? { text: text.trim() }
        : { file: { name: file.name, contentType: file.type, data: await readAsBase64(file) } };
    return adminApi.addDisputeEvidence(dispute.id, evidence, key);
  }, onDone);

  function add(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (file !== null && (!DOCUMENT_TYPES.has(file.type) || file.size > MAX_DOCUMENT_BYTES || file.size === 0)) {
      fail(adminMessages.evidenceFileInvalid);
    } else if (file === null && text.trim() === '') {
      fail(adminMessages.evidenceNeeded);
    } else {
      confirm();
    }
  }

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="evidence-title" aria-describedby="evidence-intro" onCancel={onClose}>
      <form onSubmit={add} noValidate>
        <h2 id="evidence-title">{adminMessages.evidenceTitle}</h2>
        <p id="evidence-intro">{adminMessages.evidenceIntro(disputeName(dispute))}</p>
        <p className="form-row">
          <label htmlFor="evidence-text">{adminMessages.evidenceText}</label>
          <textarea
            id="evidence-text"
            rows={4}
            maxLength={2000}
            value={text}
            disabled={file !== null}
            onChange={(event) => setText(event.target.value)}
          />
        </p>
        <p className="form-row">
          <label htmlFor="evidence-file">{adminMessages.evidenceFile}</label>
          <input
            id="evidence-file"
            type="file"
            accept="application/pdf,image/jpeg,image/png"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </p>
        <DialogActions
          error={error}
          busy={busy}
          confirmLabel={busy ? adminMessages.working : adminMessages.confirmEvidence}
          cancelLabel={adminMessages.cancel}
          onCancel={onClose}
        />
      </form>
    </dialog>
  );
}
