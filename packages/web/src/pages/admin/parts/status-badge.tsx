/** Which colour a status is shown in: good, bad, in between, or neutral. */
export type Tone = 'success' | 'danger' | 'warning' | 'neutral' | 'info';

const TONES: Record<string, Tone> = {
  succeeded: 'success',
  settled: 'success',
  Active: 'success',
  won: 'success',
  declined: 'danger',
  settlement_declined: 'danger',
  'Past Due': 'danger',
  lost: 'danger',
  open: 'warning',
  pending: 'warning',
  Pending: 'warning',
  partially_refunded: 'info',
  refunded: 'neutral',
  voided: 'neutral',
  Canceled: 'neutral',
  Expired: 'neutral',
  accepted: 'neutral',
};

/** A status as a small coloured label; the text always says it, the colour only repeats it. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span className="status-badge" data-tone={TONES[status] ?? 'neutral'}>
      {label ?? status}
    </span>
  );
}
