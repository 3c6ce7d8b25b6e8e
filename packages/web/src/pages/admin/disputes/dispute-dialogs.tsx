import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminApi, type DisputeEvidenceInput } from '../../../api/admin-client.ts';
import type { AdminDispute, DisputeDetail } from '../../../api/types.gen.ts';
import { problemOf } from '../../../api/use-load.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages, adminProblemMessage } from '../../../i18n/admin-messages.ts';
import { ConfirmDialog } from '../../account/confirm-dialog.tsx';
import { useKeyedAction } from '../parts/keyed-action.ts';
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
  const dialog = useRef<HTMLDialogElement>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  async function add(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (file !== null && (!DOCUMENT_TYPES.has(file.type) || file.size > MAX_DOCUMENT_BYTES || file.size === 0)) {
      setError(adminMessages.evidenceFileInvalid);
      return;
    }
    if (file === null && text.trim() === '') {
      setError(adminMessages.evidenceNeeded);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const evidence: DisputeEvidenceInput =
        file === null
          ? { text: text.trim() }
          : { file: { name: file.name, contentType: file.type, data: await readAsBase64(file) } };
      onDone(await adminApi.addDisputeEvidence(dispute.id, evidence, key));
    } catch (caught) {
      const problem = problemOf(caught);
      // A refusal is the key's final answer (replayed for it): other evidence is a new request. A lost answer keeps it.
      if (problem.status >= 400 && problem.status < 500 && problem.code !== 'idempotency_key_in_use') setKey(crypto.randomUUID());
      setError(adminProblemMessage(problem));
      setBusy(false);
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
        <div role="alert" className="form-error">
          {error}
        </div>
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onClose} disabled={busy}>
            {adminMessages.cancel}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? adminMessages.working : adminMessages.confirmEvidence}
          </button>
        </div>
      </form>
    </dialog>
  );
}
