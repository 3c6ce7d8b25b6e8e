// Test support only: a real local HTTP server standing in for the product's webhook endpoint. Not exported from
// src/index.ts; its name does not match the test include pattern.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../index.ts';
import type { Sandbox, SandboxOptions } from '../index.ts';

export interface ReceivedWebhook {
  contentType: string | undefined;
  signature: string;
  payload: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next `count` posts with `status` (a failing receiver), then 200 again. */
  failNext(count: number, status?: number): void;
  /** Resolves once `count` notifications have been taken (answered 200), or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 };
        response.writeHead(failures.status).end();
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      received.push({
        contentType: request.headers['content-type'],
        signature: form.get('bt_signature') ?? '',
        payload: form.get('bt_payload') ?? '',
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A sandbox posting its webhooks to a fresh receiver; `forget()` sends what is pending, then empties the receiver. */
export interface SandboxWithReceiver {
  sandbox: Sandbox;
  receiver: WebhookReceiver;
  forget(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandboxWithReceiver(options: SandboxOptions = {}): Promise<SandboxWithReceiver> {
  const receiver = await startWebhookReceiver();
  const sandbox = await startSandbox({ ...options, webhookUrl: receiver.url });
  return {
    sandbox,
    receiver,
    forget: async () => {
      await sandbox.deliverWebhooks();
      receiver.received.length = 0;
    },
    close: async () => {
      await sandbox.close();
      await receiver.close();
    },
  };
}
