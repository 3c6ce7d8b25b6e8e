import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_SESSION_LIFETIME_MS } from './device-data.ts';
import { FINGERPRINT_LIFETIME_MS } from './fingerprint.ts';
import type { Authorization } from './fingerprint.ts';
import { SandboxGateway } from './gateway.ts';
import { DEFAULT_MERCHANT_SETTINGS } from './merchant-settings.ts';
import { NONCE_LIFETIME_MS } from './nonces.ts';
import { openFileStore } from '../store/file-store.ts';
import type { FileStore } from '../store/file-store.ts';
import { readStateFile } from '../testing/state-file.ts';

// Issue 10, no unbounded state: what a checkout visit leaves in the sandbox (its device session, its nonces, the
// browser its 3-D Secure lookup described) goes once no sale of the visit can come (its nonces 3 hours on, its device
// session 27), whether or not it ended in a sale; a sale keeps what it carried with its transaction.

const guest: Authorization = { merchantId: 'm', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };
/** The browser a lookup described (parsed from braintree-web's fields by the client API). */
const BROWSER = { colorDepth: 24, language: 'de-CH', screenWidth: 390, timeZone: -60, deviceChannel: 'Browser' } as const;

let folder: string;
let file: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-device-data-'));
  file = join(folder, 'sandbox.sqlite');
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function setUp(store: FileStore) {
  let now = Date.parse('2026-06-15T12:00:00Z');
  const gateway = new SandboxGateway({
    merchantId: 'm',
    publicKey: 'p',
    privateKey: 'k',
    store,
    clock: () => new Date(now),
    settings: { ...DEFAULT_MERCHANT_SETTINGS, threeDSecure: true },
  });
  let sessions = 0;
  /** A checkout visit: the collector's session, a 3-D Secure card tokenized, its frictionless lookup. */
  const visit = (): { sessionId: string; deviceData: string; nonce: string } => {
    sessions += 1;
    const sessionId = sessions.toString(16).padStart(32, '0');
    gateway.deviceData.recordSession(sessionId, { screenWidth: 390 }, new Date(now));
    const card = gateway.tokenizeCard(guest, { number: '4000000000002701', expirationDate: '01/2030', cvv: '123' });
    if (!card.ok) throw new Error(card.message);
    const lookup = gateway.threeDSecure.lookup(guest, card.value.nonce, '25.00', BROWSER);
    if (!lookup.ok || lookup.value.kind !== 'complete') throw new Error('lookup failed');
    return { sessionId, deviceData: JSON.stringify({ device_session_id: sessionId }), nonce: lookup.value.nonce.nonce };
  };
  return { gateway, visit, advance: (ms: number) => void (now += ms), now: () => new Date(now) };
}

describe('a checkout visit in the sandbox', () => {
  it('that ends without a sale leaves nothing once its nonces and device session have expired', () => {
    const store = openFileStore(file);
    const { visit, advance } = setUp(store);
    visit();
    visit();
    advance(Math.max(NONCE_LIFETIME_MS, DEVICE_SESSION_LIFETIME_MS));
    const last = visit();
    store.flush();
    const kept = readStateFile(file).collections;
    // The last visit's session, and its two nonces (the card's and the lookup's result): nothing of the first two.
    expect(Object.keys(kept).sort()).toEqual(['device-sessions', 'nonces']);
    expect(kept['device-sessions']?.map(([id]) => id)).toEqual([last.sessionId]);
    expect(kept['nonces']?.length).toBe(2);
    store.close();
  });

  it('that ends in a sale keeps its device session and 3-D Secure browser with the transaction, not beside it', () => {
    const store = openFileStore(file);
    const { gateway, visit, advance } = setUp(store);
    const { deviceData, nonce } = visit();
    const sale = gateway.sale({ amount: '25.00', paymentMethodNonce: nonce, deviceData }, null);
    if (sale.kind !== 'success') throw new Error(sale.kind);
    advance(Math.max(NONCE_LIFETIME_MS, DEVICE_SESSION_LIFETIME_MS));
    visit();
    store.flush();
    expect(readStateFile(file).collections['device-sessions']?.length).toBe(1);
    expect(gateway.deviceData.ofTransaction(sale.transaction.id)).toEqual({
      deviceData,
      deviceSession: {
        id: JSON.parse(deviceData).device_session_id,
        signals: { screenWidth: 390 },
        collectedAt: expect.any(Date),
      },
      threeDSecureBrowser: BROWSER,
    });
    store.close();
  });

  it('that ends in a sale a day later, with a card typed before its client token expired, keeps its device session', () => {
    // Kassa's checkout runs the collector once per load, at the first keystroke: the card may be tokenized up to the
    // client token's 24 hours later and charged up to its nonce's 3 hours after that, with the same device data.
    const store = openFileStore(file);
    const { gateway, advance, now } = setUp(store);
    const sessionId = 'a'.repeat(32);
    gateway.deviceData.recordSession(sessionId, { screenWidth: 390 }, now());
    advance(FINGERPRINT_LIFETIME_MS - 60_000);
    const card = gateway.tokenizeCard(guest, { number: '4111111111111111', expirationDate: '01/2030', cvv: '123' });
    if (!card.ok) throw new Error(card.message);
    advance(NONCE_LIFETIME_MS - 60_000);
    const deviceData = JSON.stringify({ device_session_id: sessionId });
    const sale = gateway.sale({ amount: '25.00', paymentMethodNonce: card.value.nonce, deviceData }, null);
    if (sale.kind !== 'success') throw new Error(sale.kind);
    expect(gateway.deviceData.ofTransaction(sale.transaction.id)?.deviceSession?.id).toBe(sessionId);
    store.close();
  });

  it('posting its session again neither renews it nor holds back the sweep of the sessions after it', () => {
    const store = openFileStore(file);
    const { gateway, visit, advance, now } = setUp(store);
    const first = visit();
    advance(DEVICE_SESSION_LIFETIME_MS / 2);
    visit();
    advance(DEVICE_SESSION_LIFETIME_MS / 4);
    gateway.deviceData.recordSession(first.sessionId, { screenWidth: 1 }, now());
    // The second session has expired; the first too, unless the post renewed it.
    advance((DEVICE_SESSION_LIFETIME_MS * 3) / 4);
    const third = visit();
    store.flush();
    const sessions = readStateFile(file).collections['device-sessions'];
    expect(sessions?.map(([id]) => id)).toEqual([third.sessionId]);
    store.close();
  });
});
