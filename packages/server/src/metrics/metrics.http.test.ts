import { randomUUID } from 'node:crypto';
import type braintree from 'braintree';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

/** One sample's value in Prometheus' text format, e.g. `kassa_payment_attempts_total{outcome="succeeded"}`; 0 if absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

// Metrics are per app and not about the database: one engine is enough.
describe('Prometheus metrics at /metrics, against the sandbox gateway', () => {
  const engine = sqliteEngine();
  const sandbox = sandboxPerFile();
  let sdk: braintree.BraintreeGateway;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  const token = 'metrics-token-for-this-test-only-0123456789';

  beforeAll(async () => {
    sdk = createBraintreeClient(sandbox.gateway);
  });
  beforeEach(async () => {
    const opened = await engine.open();
    app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
  });
  afterEach(() => cleanup());

  async function pays(client: TestClient, productId: string): Promise<number> {
    const order = (await client.post('/api/orders', { items: [{ productId, quantity: 1 }] })).json<{ order: { id: string } }>()
      .order;
    const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
    return (await client.post(`/api/orders/${order.id}/payments`, body, { 'idempotency-key': randomUUID() })).statusCode;
  }
  const metricsText = async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('counts payments by outcome, times the gateway, counts bot-check verdicts, observes webhook lag and HTTP durations', async () => {
    const shopper = new TestClient(app);
    expect(await pays(shopper, 'prd_mug')).toBe(201);
    // The espresso machine costs 2000.00, which the sandbox declines.
    expect(await pays(shopper, 'prd_espressomachine')).toBe(402);
    const spent = { nonce: 'fake-valid-visa-nonce', botcheck: 'not-a-solution' };
    const order = (await shopper.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
      order: { id: string };
    }>().order;
    expect((await shopper.post(`/api/orders/${order.id}/payments`, spent, { 'idempotency-key': randomUUID() })).statusCode).toBe(
      403,
    );
    const notification = await sdk.webhookTesting.sampleNotification('transaction_settled', 'metrics_tx');
    const posted = await app.inject({
      method: 'POST',
      url: '/api/gateway/webhooks',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ bt_signature: notification.bt_signature, bt_payload: notification.bt_payload }).toString(),
    });
    expect(posted.statusCode).toBe(200);

    const text = await metricsText();
    expect(sample(text, 'kassa_payment_attempts_total{outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'kassa_payment_attempts_total{outcome="declined"}')).toBe(1);
    expect(sample(text, 'kassa_gateway_request_duration_seconds_count{operation="sale",result="ok"}')).toBe(2);
    expect(sample(text, 'kassa_gateway_request_duration_seconds_sum{operation="sale",result="ok"}')).toBeGreaterThan(0);
    expect(sample(text, 'kassa_botcheck_verifications_total{provider="altcha",outcome="passed"}')).toBe(2);
    expect(sample(text, 'kassa_botcheck_verifications_total{provider="altcha",outcome="failed"}')).toBe(1);
    expect(sample(text, 'kassa_webhook_lag_seconds_count{kind="transaction_settled"}')).toBe(1);
    expect(
      sample(text, 'kassa_http_request_duration_seconds_count{method="POST",route="/api/orders/:id/payments",status_code="201"}'),
    ).toBe(1);
    expect(
      sample(text, 'kassa_http_request_duration_seconds_count{method="POST",route="/api/orders/:id/payments",status_code="402"}'),
    ).toBe(1);
    // Per-route durations are a histogram (its buckets add up over instances), with no per-process summary.
    expect(text).toContain('# TYPE kassa_http_request_duration_seconds histogram');
    expect(text).not.toContain('kassa_http_request_summary_seconds');
    expect(text).toContain('kassa_process_resident_memory_bytes');
    // The metrics endpoint does not time itself.
    expect(text).not.toContain('route="/metrics"');
  });

  it('answers only the machine itself without a token: another address, or a request through a proxy, gets 404', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
  });

  it('with METRICS_TOKEN, asks every client for it as a bearer token', async () => {
    await cleanup();
    const opened = await engine.open();
    app = await buildApp(testConfig(opened.config, sandbox.gateway, { metricsToken: token }), { database: opened.handle });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    const ask = (headers: Record<string, string>, remoteAddress = '198.51.100.4') =>
      app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    expect((await ask({}, '127.0.0.1')).statusCode).toBe(404);
    expect((await ask({ authorization: `Bearer ${token}x` })).statusCode).toBe(404);
    expect((await ask({ authorization: token })).statusCode).toBe(404);
    const allowed = await ask({ authorization: `Bearer ${token}` });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('# TYPE kassa_payment_attempts_total counter');
  });
});
