import type braintree from 'braintree';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../index.ts';
import type { Sandbox } from '../../index.ts';
import { launchChromium, startMerchantPage } from '../../testing/browser.ts';
import type { MerchantPage } from '../../testing/browser.ts';
import { gatewayFor } from '../../testing/sandbox.ts';

// Device data end to end: the collector frame in Chromium hands the merchant page a deviceData string, the sale
// carries it (official SDK), and the sandbox's transaction keeps it with the device session it names.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let browser: Browser;
let merchant: MerchantPage;

beforeAll(async () => {
  sandbox = await startSandbox({ testControls: true });
  gateway = gatewayFor(sandbox);
  [browser, merchant] = await Promise.all([launchChromium(), startMerchantPage()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), merchant?.close(), sandbox?.close()]);
});

interface Received {
  origin: string;
  data: { source: string; type: string; deviceData: string };
}

const deviceDataView = async (id: string) => (await fetch(`${sandbox.origin}/__sandbox/transactions/${id}/device-data`)).json();

describe('device data', () => {
  it('the collector frame gives the page deviceData; the sale records it with its device session', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const src = `${sandbox.origin}/device-data/collector.html#${encodeURIComponent(JSON.stringify({ parentOrigin: merchant.origin }))}`;
    await page.goto(`${merchant.origin}/?frame=${encodeURIComponent(src)}`);
    const received = (): Promise<Received[]> => page.evaluate(() => (window as unknown as { received: Received[] }).received);
    await expect.poll(async () => (await received()).length).toBe(1);
    const [message] = await received();
    expect(message?.origin).toBe(sandbox.origin);
    expect(message?.data).toMatchObject({ source: 'kassa-device-data', type: 'deviceData' });
    const deviceData = message?.data.deviceData ?? '';
    const parsed = JSON.parse(deviceData) as { device_session_id: string; fraud_merchant_id: string; correlation_id: string };
    expect(parsed.device_session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(violations).toEqual([]);
    await page.close();

    const sale = await gateway.transaction.sale({ amount: '10.00', paymentMethodNonce: 'fake-valid-nonce', deviceData });
    expect(sale.transaction.riskData).toMatchObject({ deviceDataCaptured: true });
    expect((await gateway.transaction.find(sale.transaction.id)).riskData).toMatchObject({ deviceDataCaptured: true });
    const view = (await deviceDataView(sale.transaction.id)) as {
      deviceData: string;
      deviceSession: { id: string; signals: Record<string, unknown> };
    };
    expect(view.deviceData).toBe(deviceData);
    expect(view.deviceSession.id).toBe(parsed.device_session_id);
    expect(view.deviceSession.signals).toMatchObject({
      screenWidth: expect.any(Number),
      language: expect.any(String),
      timeZone: expect.any(String),
    });
  });

  it('a sale without device data: not captured, nothing recorded; device data from elsewhere is kept as given', async () => {
    const plain = await gateway.transaction.sale({ amount: '10.00', paymentMethodNonce: 'fake-valid-nonce' });
    expect(plain.transaction.riskData).toMatchObject({ deviceDataCaptured: false });
    expect(await deviceDataView(plain.transaction.id)).toEqual({
      deviceData: null,
      deviceSession: null,
      threeDSecureBrowser: null,
    });

    const foreign = await gateway.transaction.sale({
      amount: '10.00',
      paymentMethodNonce: 'fake-valid-nonce',
      deviceData: '{"correlation_id":"abc"}',
    });
    expect(await deviceDataView(foreign.transaction.id)).toEqual({
      deviceData: '{"correlation_id":"abc"}',
      deviceSession: null,
      threeDSecureBrowser: null,
    });
    expect((await fetch(`${sandbox.origin}/__sandbox/transactions/nope/device-data`)).status).toBe(404);
  });

  it('the session endpoint refuses anything but a session id and short signals', async () => {
    const post = (body: unknown) =>
      fetch(`${sandbox.origin}/device-data/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ sessionId: 'x', signals: {} })).status).toBe(400);
    expect((await post({ sessionId: 'a'.repeat(32), signals: { note: 'n'.repeat(101) } })).status).toBe(400);
    expect((await post({ sessionId: 'a'.repeat(32), signals: { screenWidth: 390 } })).status).toBe(204);
  });
});
