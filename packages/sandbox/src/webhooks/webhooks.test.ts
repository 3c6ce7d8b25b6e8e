import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { gatewayFor } from '../testing/sandbox.ts';
import { startWebhookReceiver } from '../testing/webhook-receiver.ts';
import type { ReceivedWebhook, WebhookReceiver } from '../testing/webhook-receiver.ts';
import { RETRY_DELAYS_MS } from './deliveries.ts';
import { signPayload } from './notification.ts';

// Webhooks as the product receives them: a real local HTTP receiver, and the OFFICIAL SDK's
// webhookNotification.parse on what arrives (it verifies the signature and reads the payload).

let receiver: WebhookReceiver;
let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  sandbox = await startSandbox({ webhookUrl: receiver.url });
  gateway = gatewayFor(sandbox);
});
afterEach(async () => {
  await sandbox.close();
});

async function captured(amount = '10.00'): Promise<string> {
  const result = await gateway.transaction.sale({
    amount,
    paymentMethodNonce: 'fake-valid-nonce',
    options: { submitForSettlement: true },
  });
  return result.transaction.id;
}

/** What the SDK's parse gives (its types are a union that hides `transaction` / `subscription` behind the kind). */
interface Parsed {
  kind: string;
  timestamp: Date;
  transaction?: braintree.Transaction;
  subscription?: braintree.Subscription;
}

async function parseWith(sdk: braintree.BraintreeGateway, signature: string, payload: string): Promise<Parsed> {
  return (await sdk.webhookNotification.parse(signature, payload)) as unknown as Parsed;
}

function parse(webhook: ReceivedWebhook): Promise<Parsed> {
  return parseWith(gateway, webhook.signature, webhook.payload);
}

describe('signed notifications the SDK accepts', () => {
  it('posts transaction_settled, form-encoded, with the settled transaction as its subject', async () => {
    const id = await captured();
    await gateway.testing.settle(id);
    const [webhook] = await receiver.waitFor(1);
    if (webhook === undefined) throw new Error('no webhook');
    expect(webhook.contentType).toBe('application/x-www-form-urlencoded');
    const notification = await parse(webhook);
    expect(notification.kind).toBe('transaction_settled');
    expect([notification.transaction?.id, notification.transaction?.status]).toEqual([id, 'settled']);
    expect(notification.timestamp).toBeTruthy();
  });

  it('posts transaction_settlement_declined, and transaction_settled when the batch settles by itself', async () => {
    const declined = await captured();
    await gateway.testing.settlementDecline(declined);
    const batched = await captured('12.00');
    sandbox.advanceClock(24 * 60 * 60 * 1000);
    const webhooks = await receiver.waitFor(2);
    const notifications = await Promise.all(webhooks.map(parse));
    expect(notifications.map((notification) => [notification.kind, notification.transaction?.id])).toEqual([
      ['transaction_settlement_declined', declined],
      ['transaction_settled', batched],
    ]);
  });

  it('signs with the same scheme as the SDK (webhookTesting.sampleNotification), which the SDK parses back', async () => {
    const sample = gateway.webhookTesting.sampleNotification('subscription_went_past_due', 'sub_1') as unknown as {
      bt_signature: string;
      bt_payload: string;
    };
    expect(signPayload(sample.bt_payload, sandbox)).toBe(sample.bt_signature);
    const notification = await parseWith(gateway, sample.bt_signature, sample.bt_payload);
    expect([notification.kind, notification.subscription?.id]).toEqual(['subscription_went_past_due', 'sub_1']);
  });

  it('is refused by the SDK when tampered with or signed with other keys', async () => {
    await gateway.testing.settle(await captured());
    const [webhook] = await receiver.waitFor(1);
    if (webhook === undefined) throw new Error('no webhook');
    const tampered = Buffer.from(Buffer.from(webhook.payload, 'base64').toString('utf8').replace('settled', 'voided')).toString(
      'base64',
    );
    await expect(gateway.webhookNotification.parse(webhook.signature, tampered)).rejects.toMatchObject({
      type: 'invalidSignatureError',
    });
    const other = gatewayFor({ ...sandbox, privateKey: 'another-private-key' });
    await expect(other.webhookNotification.parse(webhook.signature, webhook.payload)).rejects.toMatchObject({
      type: 'invalidSignatureError',
    });
  });
});

describe('retries', () => {
  it('tries again with back-off while the receiver fails, then delivers the same notification once', async () => {
    receiver.failNext(2, 503);
    await gateway.testing.settle(await captured());
    await sandbox.deliverWebhooks();
    expect(receiver.received).toHaveLength(0);
    sandbox.advanceClock(RETRY_DELAYS_MS[0] - 1000);
    await sandbox.deliverWebhooks();
    expect(receiver.received).toHaveLength(0);
    sandbox.advanceClock(1000);
    await sandbox.deliverWebhooks();
    expect(receiver.received).toHaveLength(0);
    sandbox.advanceClock(RETRY_DELAYS_MS[1]);
    await sandbox.deliverWebhooks();
    const [webhook] = await receiver.waitFor(1);
    if (webhook === undefined) throw new Error('no webhook');
    expect((await parse(webhook)).kind).toBe('transaction_settled');
    sandbox.advanceClock(60 * 60 * 1000);
    await sandbox.deliverWebhooks();
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps every notification of a burst while the receiver fails', async () => {
    receiver.failNext(1);
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => captured(`${n}.00`)));
    for (const id of ids) await gateway.testing.settle(id);
    await sandbox.deliverWebhooks();
    sandbox.advanceClock(RETRY_DELAYS_MS[0]);
    const webhooks = await receiver.waitFor(5);
    const settled = (await Promise.all(webhooks.map(parse))).map((notification) => notification.transaction?.id);
    expect(new Set(settled)).toEqual(new Set(ids));
  });
});

describe('across a restart', () => {
  it('sends after a restart what a down receiver did not take before it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-webhooks-'));
    const options = {
      dataFile: join(folder, 'sandbox.json'),
      webhookUrl: receiver.url,
      merchantId: 'm1',
      publicKey: 'p1',
      privateKey: 'k1',
    };
    try {
      const first = await startSandbox(options);
      receiver.failNext(1);
      const firstGateway = gatewayFor(first);
      const sale = await firstGateway.transaction.sale({
        amount: '10.00',
        paymentMethodNonce: 'fake-valid-nonce',
        options: { submitForSettlement: true },
      });
      await firstGateway.testing.settle(sale.transaction.id);
      await first.deliverWebhooks();
      await first.close();
      expect(receiver.received).toHaveLength(0);

      const second = await startSandbox(options);
      try {
        second.advanceClock(RETRY_DELAYS_MS[0]);
        const [webhook] = await receiver.waitFor(1);
        if (webhook === undefined) throw new Error('no webhook');
        const notification = await parseWith(gatewayFor(second), webhook.signature, webhook.payload);
        expect(notification.transaction?.id).toBe(sale.transaction.id);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
