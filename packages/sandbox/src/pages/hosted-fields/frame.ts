import { createHostedField } from './field.ts';
import type { HostedField, Tokenizer } from './field.ts';
import { parseFrameParams } from './protocol.ts';

/** The tokenization script's name and version, `tokenize.js?v=…` beside this script (bundle.ts defines it). */
declare const TOKENIZE_SCRIPT: string;

// Entry point of the hosted field frame page: reads its configuration from the URL fragment and wires one field
// to the page's input, window.parent (declared origin only) and the instance's BroadcastChannel.

const params = parseFrameParams(location.hash);
const input = document.getElementById('field');
if (params !== null && input instanceof HTMLInputElement) {
  const { channel, parentOrigin } = params;
  let field: HostedField | undefined;
  let tokenizerTries = 0;
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
    loadTokenizer: () => {
      // A module that failed to download stays failed at its address (Chromium answers every later import of it with
      // that failure), so each try after the first asks at an address of its own. Computed, not a literal: the bundler
      // leaves the import to the browser.
      tokenizerTries += 1;
      const address = tokenizerTries === 1 ? TOKENIZE_SCRIPT : `${TOKENIZE_SCRIPT}&try=${tokenizerTries}`;
      return import(new URL(address, location.href).href) as Promise<Tokenizer>;
    },
  });
}
