import type { Collection } from '../store/store.ts';

// Device data, as the provider's fraud tools get it: the browser runs the sandbox's collector (pages/device-data/),
// which records a device session here and hands the checkout a `deviceData` string; `transaction.sale` passes that
// string on, and the sandbox keeps it with the transaction (the provider reports `riskData.deviceDataCaptured`).

/** What the collector saw of the device: coarse signals only, nothing that identifies the shopper. */
export interface DeviceSession {
  id: string;
  signals: Record<string, string | number>;
  collectedAt: Date;
}

/** The device data a sale carried, and the session it names when the sandbox's collector made it. */
export interface TransactionDeviceData {
  deviceData: string;
  deviceSessionId: string | null;
}

export const DEVICE_SESSION_ID = /^[0-9a-f]{32}$/;
const MAX_SIGNALS = 20;
/** Longer device data is cut: the provider's collectors produce about 100 characters. */
export const MAX_DEVICE_DATA_LENGTH = 2048;

/** The collector's signals, checked: at most 20, short names, short strings or finite numbers. */
export function parseSignals(value: unknown): Record<string, string | number> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_SIGNALS) return null;
  const signals: Record<string, string | number> = {};
  for (const [key, signal] of entries) {
    if (!/^[a-zA-Z]{1,32}$/.test(key)) return null;
    if (typeof signal === 'string' && signal.length <= 100) signals[key] = signal;
    else if (typeof signal === 'number' && Number.isFinite(signal)) signals[key] = signal;
    else return null;
  }
  return signals;
}

/** The session id inside device data made by the collector (`{"device_session_id": ...}`), or null. */
export function deviceSessionIdOf(deviceData: string): string | null {
  try {
    const parsed = JSON.parse(deviceData) as { device_session_id?: unknown };
    const id = parsed.device_session_id;
    return typeof id === 'string' && DEVICE_SESSION_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

export class DeviceData {
  constructor(
    private readonly sessions: Collection<DeviceSession>,
    private readonly byTransaction: Collection<TransactionDeviceData>,
  ) {}

  recordSession(id: string, signals: Record<string, string | number>, now: Date): void {
    this.sessions.set(id, { id, signals, collectedAt: now });
  }

  session(id: string): DeviceSession | undefined {
    return this.sessions.get(id);
  }

  recordSale(transactionId: string, deviceData: string): void {
    const kept = deviceData.slice(0, MAX_DEVICE_DATA_LENGTH);
    this.byTransaction.set(transactionId, { deviceData: kept, deviceSessionId: deviceSessionIdOf(kept) });
  }

  ofTransaction(transactionId: string): TransactionDeviceData | undefined {
    return this.byTransaction.get(transactionId);
  }
}
