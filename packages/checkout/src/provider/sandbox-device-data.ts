// Device data from Kassa's sandbox gateway (docs/contracts.md section 1, "Device data"): its collector page, on the
// gateway's origin, runs in a hidden frame, records a device session and posts back the `deviceData` string the
// payment carries to `transaction.sale`. No script of the gateway's runs in the merchant's page (strict CSP: only
// frame-src for the gateway). Imported on demand by the sandbox provider.

/** What the collector posts to its parent (the sandbox's pages/device-data/protocol.ts). */
const COLLECTOR_SOURCE = 'kassa-device-data';

export function collectWithSandbox(assetsUrl: string, signal: AbortSignal): Promise<string | null> {
  return new Promise((resolve) => {
    const gatewayOrigin = new URL(assetsUrl).origin;
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.title = 'Device data';
    frame.setAttribute('aria-hidden', 'true');
    frame.src = `${gatewayOrigin}/device-data/collector.html#${encodeURIComponent(JSON.stringify({ parentOrigin: window.location.origin }))}`;

    const finish = (deviceData: string | null): void => {
      window.removeEventListener('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      frame.remove();
      resolve(deviceData);
    };
    const onAbort = (): void => finish(null);
    const onMessage = (event: MessageEvent<unknown>): void => {
      const data = event.data as { source?: unknown; type?: unknown; deviceData?: unknown } | null;
      if (event.origin !== gatewayOrigin || event.source !== frame.contentWindow || typeof data !== 'object' || data === null)
        return;
      if (data.source === COLLECTOR_SOURCE && data.type === 'deviceData' && typeof data.deviceData === 'string')
        finish(data.deviceData);
    };
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
    document.body.append(frame);
  });
}
