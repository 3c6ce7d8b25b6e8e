// While the shopper reads the cart, the gateway's card field page loads in a hidden frame: by the time "Go to
// checkout" has made the order and the checkout makes its card frames, Chromium has the gateway origin's renderer
// process running and the frames' page, script and stylesheet in its cache (issue 10). Made on the cart page, it is off
// the checkout's path; made in the checkout page itself it put the same work on that path (bench/FINDINGS.md, fifth pass).
// Given no fragment (no field, channel or parent), the page's script takes no field and says nothing.

/**
 * How long the frame outlives the cart page: the app's navigation to the checkout removes the page, and the checkout's
 * number frame, made within this, finds the renderer running (it then keeps it); a shopper who went elsewhere does not
 * keep a renderer they do not use.
 */
const KEPT_AFTER_CART_MS = 10_000;

let warm: { readonly iframe: HTMLIFrameElement; dropping?: ReturnType<typeof setTimeout> } | null = null;

function drop(): void {
  if (warm === null) return;
  clearTimeout(warm.dropping);
  warm.iframe.remove();
  warm = null;
}

/**
 * Loads `cardFieldsPage` in a hidden frame at the end of the body (out of React's tree, so it outlives the page that
 * asked), once however many times it is asked; the returned function lets it go `KEPT_AFTER_CART_MS` later.
 */
export function warmCardFields(cardFieldsPage: string): () => void {
  let kept = warm;
  if (kept?.iframe.src === cardFieldsPage) clearTimeout(kept.dropping);
  else {
    drop();
    // Hidden, out of the tab order and of the accessibility tree: nothing in it is for the shopper.
    const iframe = document.createElement('iframe');
    iframe.src = cardFieldsPage;
    iframe.hidden = true;
    iframe.tabIndex = -1;
    iframe.setAttribute('aria-hidden', 'true');
    iframe.dataset.kassaWarmFrame = '';
    document.body.append(iframe);
    kept = { iframe };
    warm = kept;
  }
  const frame = kept;
  return () => {
    if (warm === frame) frame.dropping = setTimeout(drop, KEPT_AFTER_CART_MS);
  };
}
