import type { DisputeDetail } from '../../../api/types.gen.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { formatDateTime } from '../parts/format.ts';

export type EvidenceItem = DisputeDetail['evidence'][number];

/** How a sentence names an item: the note's first words, or the document's name. */
export function evidenceItemName(item: EvidenceItem): string {
  return adminMessages.evidenceItemName(item.comment, item.documentName);
}

/**
 * A dispute's evidence, oldest first: each note in full, each document by its name, who added it and when. `onRemove`
 * (null once the dispute is closed) offers each item's Remove.
 */
export function EvidenceList({
  evidence,
  onRemove,
}: {
  evidence: readonly EvidenceItem[];
  onRemove: ((item: EvidenceItem) => void) | null;
}) {
  if (evidence.length === 0) return null;
  return (
    <ul className="evidence-list">
      {evidence.map((item) => (
        <li key={item.id} className="evidence-item">
          <div className="evidence-body">
            <span className="evidence-kind">
              {item.comment === null ? adminMessages.evidenceDocumentLabel : adminMessages.evidenceNoteLabel}
            </span>
            {item.comment !== null ? (
              <p className="evidence-note">{item.comment}</p>
            ) : (
              <p className="evidence-document">{item.documentName ?? adminMessages.unnamedDocument}</p>
            )}
            <span className="evidence-meta">{adminMessages.evidenceAddedBy(item.addedBy, formatDateTime(item.createdAt))}</span>
          </div>
          {onRemove !== null && (
            <button
              type="button"
              className="secondary small"
              aria-label={adminMessages.removeEvidenceOf(evidenceItemName(item))}
              onClick={() => onRemove(item)}
            >
              {adminMessages.removeEvidence}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
