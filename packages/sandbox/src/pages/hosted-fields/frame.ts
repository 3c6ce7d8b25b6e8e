import { createHostedField } from './field.ts';
import type { FieldSteps, HostedField, Tokenizer } from './field.ts';
import { parseFrameParams } from './protocol.ts';

// Entry point of the hosted field frame page: reads its configuration from the URL fragment and wires one field
// to the page's input, window.parent (declared origin only) and the instance's BroadcastChannel.

/** The tokenization's and the card rules' (with what the field does with them) scripts, `tokenize.js?v=…` and `validate.js?v=…` beside this one (bundle.ts). */
declare const TOKENIZE_SCRIPT: string;
declare const VALIDATE_SCRIPT: string;

/**
 * Imports a module beside this script. A module that failed to download stays failed at its address (Chromium answers
 * every later import of it with that failure), so each try after the first asks at an address of its own. Computed, not
 * a literal: the bundler leaves the import to the browser.
 */
function importer<T>(script: string): () => Promise<T> {
  let tries = 0;
  return () => {
    tries += 1;
    return import(new URL(tries === 1 ? script : `${script}&try=${tries}`, location.href).href) as Promise<T>;
  };
}

const params = parseFrameParams(location.hash);
const input = document.getElementById('field');
const loadRules = importer<FieldSteps>(VALIDATE_SCRIPT);
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
    loadTokenizer: importer<Tokenizer>(TOKENIZE_SCRIPT),
    loadRules,
  });
} else {
  // A frame that speaks for no checkout (the shop's cart loads one to have the frames' files cached): the card rules too.
  loadRules().catch(() => undefined);
}
