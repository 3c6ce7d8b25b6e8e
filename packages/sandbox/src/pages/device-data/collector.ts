import { DEVICE_DATA_MESSAGE_SOURCE } from './protocol.ts';
import type { CollectorFragment, DeviceDataMessage } from './protocol.ts';

// The device-data collector (entry of collector.js), run in a hidden frame on the sandbox's origin as the provider's
// fraud tools run theirs: a new device session with a few coarse signals, recorded at the sandbox, and the
// `deviceData` string for the checkout, posted only to the origin the fragment names.

function readFragment(hash: string): CollectorFragment | null {
  try {
    const value = JSON.parse(decodeURIComponent(hash.replace(/^#/, ''))) as Partial<CollectorFragment>;
    return typeof value.parentOrigin === 'string' ? { parentOrigin: value.parentOrigin } : null;
  } catch {
    return null;
  }
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function collect(): Promise<void> {
  const fragment = readFragment(location.hash);
  if (fragment === null || window.parent === window) return;
  const sessionId = randomHex(16);
  const signals = {
    screenWidth: screen.width,
    screenHeight: screen.height,
    colorDepth: screen.colorDepth,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone.slice(0, 100),
    language: navigator.language.slice(0, 100),
    touchPoints: navigator.maxTouchPoints,
  };
  // Best effort, as the provider's collectors are: the checkout gets its device data even if this is lost.
  await fetch('/device-data/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId, signals }),
  }).catch(() => undefined);
  const message: DeviceDataMessage = {
    source: DEVICE_DATA_MESSAGE_SOURCE,
    type: 'deviceData',
    deviceData: JSON.stringify({
      device_session_id: sessionId,
      fraud_merchant_id: 'kassa-sandbox',
      correlation_id: randomHex(16),
    }),
  };
  window.parent.postMessage(message, fragment.parentOrigin);
}

void collect();
