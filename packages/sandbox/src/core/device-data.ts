import type { Collection } from '../store/store.ts';
import { ExpiringRecords } from './expiring-records.ts';
import { FINGERPRINT_LIFETIME_MS } from './fingerprint.ts';
import { NONCE_LIFETIME_MS } from './nonces.ts';

// Device data, as the provider's fraud tools get it: the browser runs the sandbox's collector (pages/device-data/),
// which records a device session here and hands the checkout a `deviceData` string; `transaction.sale` passes that
// string on, and the sandbox keeps it with the transaction (the provider reports `riskData.deviceDataCaptured`).
// Besides, a 3-D Secure 2 lookup may carry the shopper's browser (braintree-web's `verifyCard({ collectDeviceData:
// true })`), which the provider passes to the issuer with the authentication; the sandbox keeps it with the result's
// nonce (nonces.ts). What a sale names, its device session and its lookup's browser, is copied into its record, so
// that neither sessions nor nonces need outlive the checkout that made them (issue 10: no unbounded state).

/** What the collector saw of the device: coarse signals only, nothing that identifies the shopper. */
export interface DeviceSession {
  id: string;
  signals: Record<string, string | number>;
  collectedAt: Date;
}

/**
 * A collector's session is kept as long as a sale from the checkout that ran the collector can come: a checkout runs
 * it once per load, then may tokenize a card while its client token lives (24 hours) and charge that nonce for its 3
 * hours, all with the same device data. The provider's fraud tools join a sale's device data to its session however
 * late it comes; no later sale can name it here, and one posted with every checkout, kept for ever, would grow with
 * the visits, not with the payments.
 */
export const DEVICE_SESSION_LIFETIME_MS = FINGERPRINT_LIFETIME_MS + NONCE_LIFETIME_MS;

/** What a sale carried: its device data, the session that data names, the browser its 3-D Secure lookup described. */
export interface TransactionDeviceData {
  deviceData: string | null;
  /** The collector's session as it was at the sale, when the device data names one the sandbox still kept. */
  deviceSession?: DeviceSession;
  threeDSecureBrowser?: ThreeDSecureBrowser;
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

/**
 * The browser a 3-D Secure 2 lookup described, named as the provider's API names it (its GraphQL
 * ThreeDSecureLookupBrowserInformationInput); each field is present only when the lookup sent it well-formed.
 */
export interface ThreeDSecureBrowser {
  deviceChannel?: 'Browser';
  colorDepth?: number;
  javaEnabled?: boolean;
  javascriptEnabled?: boolean;
  language?: string;
  screenHeight?: number;
  screenWidth?: number;
  timeZone?: number;
}

/** EMV 3-D Secure 2's allowed colour depths (bits per pixel). */
const COLOR_DEPTHS = new Set([1, 4, 8, 15, 16, 24, 32, 48]);
const whole = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * The browser fields of a client API lookup body, as braintree-web 3.144 sends them with `collectDeviceData: true`
 * (three-d-secure/external/frameworks/base.js, `_formatLookupData`), checked against EMV 3-D Secure 2's formats:
 * colour depth one of its values, screen sizes up to 6 digits, the time zone the browser's `getTimezoneOffset()`
 * (-840 to 720 minutes), a BCP 47 language of up to 35 characters. The fields are optional enrichment: one that is
 * malformed is left out and the lookup goes on (the provider does not document an error for them). Null when the
 * lookup described no browser.
 */
export function parseThreeDSecureBrowser(body: Readonly<Record<string, unknown>>): ThreeDSecureBrowser | null {
  const browser: ThreeDSecureBrowser = {};
  if (body.deviceChannel === 'Browser') browser.deviceChannel = 'Browser';
  const colorDepth = body.browserColorDepth;
  if (typeof colorDepth === 'number' && COLOR_DEPTHS.has(colorDepth)) browser.colorDepth = colorDepth;
  if (typeof body.browserJavaEnabled === 'boolean') browser.javaEnabled = body.browserJavaEnabled;
  if (typeof body.browserJavascriptEnabled === 'boolean') browser.javascriptEnabled = body.browserJavascriptEnabled;
  const language = body.browserLanguage;
  if (typeof language === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(language)) browser.language = language;
  if (whole(body.browserScreenHeight, 0, 999_999)) browser.screenHeight = body.browserScreenHeight;
  if (whole(body.browserScreenWidth, 0, 999_999)) browser.screenWidth = body.browserScreenWidth;
  if (whole(body.browserTimeZone, -840, 720)) browser.timeZone = body.browserTimeZone;
  return Object.keys(browser).length === 0 ? null : browser;
}

export class DeviceData {
  private readonly sessions: ExpiringRecords<DeviceSession>;

  constructor(
    sessions: Collection<DeviceSession>,
    private readonly byTransaction: Collection<TransactionDeviceData>,
  ) {
    this.sessions = new ExpiringRecords(
      sessions,
      DEVICE_SESSION_LIFETIME_MS,
      (session) => session.id,
      (session) => session.collectedAt.getTime(),
    );
  }

  /**
   * A session is recorded once: posted again under the same id while kept, it keeps its first signals, place and
   * time, whose order the sweep of expired sessions rests on (a session kept alive by being posted again would hold
   * back the sweep of every session after it).
   */
  recordSession(id: string, signals: Record<string, string | number>, now: Date): void {
    if (this.sessions.live(id, now.getTime()) !== undefined) return;
    this.sessions.add({ id, signals, collectedAt: now }, now.getTime());
  }

  /** A sale's device data (cut at MAX_DEVICE_DATA_LENGTH) and its nonce's 3-D Secure browser, when it had either. */
  recordSale(transactionId: string, deviceData: string | null, browser: ThreeDSecureBrowser | null, now: Date): void {
    if (deviceData === null && browser === null) return;
    const kept = deviceData?.slice(0, MAX_DEVICE_DATA_LENGTH) ?? null;
    const sessionId = kept === null ? null : deviceSessionIdOf(kept);
    const session = sessionId === null ? undefined : this.sessions.live(sessionId, now.getTime());
    this.byTransaction.set(transactionId, {
      deviceData: kept,
      ...(session === undefined ? {} : { deviceSession: session }),
      ...(browser === null ? {} : { threeDSecureBrowser: browser }),
    });
  }

  ofTransaction(transactionId: string): TransactionDeviceData | undefined {
    return this.byTransaction.get(transactionId);
  }
}
