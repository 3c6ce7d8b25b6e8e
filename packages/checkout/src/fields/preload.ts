// The card field frames' page, loaded ahead in a hidden frame: the gateway origin's renderer process is started, and
// the page (its script and stylesheet in it) is in the browser's cache, before the card view mounts the five field
// frames (issue 10: that process was started only then, a wait of 50-100 ms before the first frame could load).
import { parseClientToken } from '../provider/client-token.ts';
import { frameUrl } from './protocol.ts';

/**
 * Preloads the sandbox's card field frame for a client token, into `doc`'s body; returns what removes it (once the
 * checkout has mounted its fields, or the shopper has left). A token that cannot be read preloads nothing: the
 * checkout reports it when it loads.
 */
export function preloadSandboxFields(authorization: string, doc: Document = document): () => void {
  let assetsUrl: string;
  try {
    ({ assetsUrl } = parseClientToken(authorization));
  } catch {
    return () => {};
  }
  const frame = doc.createElement('iframe');
  // The fields' page (the fragment is not part of what is cached), with no channel: its script does nothing.
  frame.src = frameUrl(assetsUrl, 'number', '', doc.defaultView?.location.origin ?? '');
  frame.title = 'Card fields';
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  doc.body.append(frame);
  return () => frame.remove();
}
