// Test support only: a real Chromium (KASSA_CHROMIUM, which `npm test` sets, or Debian's) through playwright-core,
// and a merchant page on another origin that frames a sandbox page and records the messages it receives. Nothing is
// downloaded.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['KASSA_CHROMIUM'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface MerchantPage {
  origin: string;
  close(): Promise<void>;
}

/** Serves `/?frame=URL`: a page with that URL in an iframe, keeping every message event in `window.received`. */
export async function startMerchantPage(): Promise<MerchantPage> {
  const server = createServer((request, response) => {
    const frame = new URL(request.url ?? '/', 'http://host').searchParams.get('frame') ?? '';
    const escaped = frame.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>Shop</title><button id="before">Before</button>
<iframe id="sandbox-page" title="Sandbox page" src="${escaped}" width="420" height="560"></iframe>
<script>window.received = []; addEventListener('message', (event) => received.push({ origin: event.origin, data: event.data }));</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another origin than the sandbox's, as a real shop is.
  const { port } = server.address() as AddressInfo;
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
