import { adminMessages } from '../../../i18n/admin-messages.ts';

/** A list's status filter: changing it shows the list at once (no Apply button for one control). */
export function StatusFilter({
  id,
  statuses,
  value,
  onChange,
  label,
  title = adminMessages.status,
  allLabel = adminMessages.allStatuses,
}: {
  id: string;
  statuses: readonly string[];
  value: string;
  onChange: (value: string) => void;
  label?: (status: string) => string;
  /** The control's label and its "any" choice, when the list is filtered by something other than a status. */
  title?: string;
  allLabel?: string;
}) {
  return (
    <p className="inline-filter">
      <label htmlFor={id}>{title}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{allLabel}</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {label?.(status) ?? status}
          </option>
        ))}
      </select>
    </p>
  );
}
