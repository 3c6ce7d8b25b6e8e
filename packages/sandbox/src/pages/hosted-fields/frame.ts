import { createHostedField } from './field.ts';
import type { HostedField } from './field.ts';
import { parseFrameParams } from './protocol.ts';

// Entry point of the hosted field frame page: reads its configuration from the URL fragment and wires one field
// to the page's input, window.parent (declared origin only) and the instance's BroadcastChannel.

const params = parseFrameParams(location.hash);
const input = document.getElementById('field');
if (params !== null && input instanceof HTMLInputElement) {
  const { channel, parentOrigin } = params;
  let field: HostedField | undefined;
  // Listening before the field announces `ready`.
  window.addEventListener('message', (event) => {
    // Only the embedding page at its declared origin may drive the field.
    if (event.source === window.parent && event.origin === parentOrigin) field?.receive(event.data);
  });
  field = createHostedField(params, {
    input,
    postToParent: (message) => window.parent.postMessage(message, parentOrigin),
    siblings: new BroadcastChannel(`kassa-hosted-fields:${channel}`),
    origin: location.origin,
    fetch: (resource, init) => fetch(resource, init),
  });
}
