import { createHash, createHmac } from 'node:crypto';
import type { Credentials } from '../core/gateway.ts';
import type { GatewayEvent } from '../core/events.ts';
import { transactionXml } from '../server-api/serialize.ts';
import { disputeXml } from '../server-api/serialize-disputes.ts';
import { subscriptionXml } from '../server-api/serialize-vault.ts';
import { xmlDocument } from '../server-api/xml.ts';
import type { XmlElement } from '../server-api/xml.ts';

// A webhook notification as the provider sends it (gateway.md, "Webhooks"): `bt_payload` is base64 of
// `<notification><timestamp/><kind/><subject>...</subject></notification>`, the subject being the record as the
// server API would answer it; `bt_signature` is `publicKey|hex(HMAC-SHA1(key = SHA1(privateKey), bt_payload))`.
// The official SDK's webhookNotification.parse verifies exactly that (and its webhookTesting.sampleNotification
// signs the same way), so a product that accepts one accepts the other.

export interface SignedNotification {
  bt_signature: string;
  bt_payload: string;
}

function subject(event: GatewayEvent): XmlElement {
  if ('transaction' in event) return { transaction: transactionXml(event.transaction) };
  if ('dispute' in event) return { dispute: disputeXml(event.dispute) };
  return { subscription: subscriptionXml(event.subscription) };
}

export function notificationPayload(event: GatewayEvent, at: Date): string {
  const xml = xmlDocument('notification', { timestamp: at, kind: event.kind, subject: subject(event) });
  return Buffer.from(xml, 'utf8').toString('base64');
}

export function signPayload(payload: string, credentials: Pick<Credentials, 'publicKey' | 'privateKey'>): string {
  const key = createHash('sha1').update(credentials.privateKey).digest();
  return `${credentials.publicKey}|${createHmac('sha1', key).update(payload).digest('hex')}`;
}

export function signedNotification(event: GatewayEvent, at: Date, credentials: Credentials): SignedNotification {
  const payload = notificationPayload(event, at);
  return { bt_signature: signPayload(payload, credentials), bt_payload: payload };
}
