// Mounts one gateway-served iframe per card field and speaks the frame protocol with them. The checkout never
// sees card data: it only sends instructions and receives states, brands and tokenization outcomes.
import type { FieldName, PaymentMethodResult, TokenizeFailure } from '../machine/checkout.types.ts';
import { inTime, OPTION_LOAD_TIMEOUT_MS as SETTLE_TIMEOUT_MS } from '../runtime/in-time.ts';
import {
  createFrameRouter,
  envelope,
  frameUrl,
  type ConfigurePayload,
  type FieldStyle,
  type FrameMessage,
  type ParentMessage,
  type TokenizeRequest,
} from './protocol.ts';
import type { FramesSubmit } from './submit.ts';

export type TokenizeOutcome =
  | { readonly ok: true; readonly result: PaymentMethodResult }
  | { readonly ok: false; readonly error: TokenizeFailure };

export interface FieldMount {
  readonly field: FieldName;
  readonly container: HTMLElement;
  /** The iframe's title: the field's visible label. */
  readonly title: string;
  /** Id of the element holding the field's message. */
  readonly describedBy: string;
}

export interface HostedFieldsOptions {
  readonly assetsUrl: string;
  readonly mounts: readonly FieldMount[];
  readonly onMessage: (field: FieldName, message: FrameMessage) => void;
}

export interface HostedFields {
  readonly channel: string;
  /** Sends `configure` if it differs from what the frame last received. */
  configure(field: FieldName, payload: ConfigurePayload): void;
  setCvvSize(size: 3 | 4 | null): void;
  focus(field: FieldName): void;
  clear(): void;
  /**
   * Reads each container's colours and font again (the page's theme changed) for the frames' next `configure`, which
   * then differs and is sent: what was typed stays. False where the fields take them only as they are made
   * (braintree-web's): they must be made again then.
   */
  restyle(): boolean;
  /**
   * True once the frames of these fields have answered a `sync` (messages between two windows keep their order, so every
   * report they sent before it has been handed to `onMessage`); false after SETTLE_TIMEOUT_MS without the others' (a
   * frame answers once its card rules are in: the sandbox's validate.js), or at once when one answers that they could
   * not be imported (`syncFailed`). One at a time (a submit waits for it before the
   * next): the answers carry no request id. The sandbox's: submit.ts, imported on demand, the wait for it within the same
   * limit; false if it cannot be, at once.
   */
  settle(fields: readonly FieldName[]): Promise<boolean>;
  /**
   * The card sent to the gateway by the number frame (the sandbox's side here: submit.ts, imported on demand), within
   * TOKENIZE_TIMEOUT_MS of the call, the module's download included.
   */
  tokenize(request: Omit<TokenizeRequest, 'requestId'>): Promise<TokenizeOutcome>;
  /** Removes the frames and the listener; a pending tokenization settles as a network failure. */
  teardown(): void;
}

/**
 * How long a submit waits for the frames' answers to `sync` (and a submit's module): a part's download limit, since a
 * frame answers once its card rules have downloaded. Not judged before (the card would be judged by reports from before
 * the rules: "Check your entries" for a card typed right); past it, the card cannot be sent (runtime/parts/payment.ts).
 * The limit itself, not a copy: a constant's copy stays a variable of its own in the card view's chunk.
 */
export { SETTLE_TIMEOUT_MS };
/** How long a tokenization may take, a submit's module's download included, before it counts as failed. */
export const TOKENIZE_TIMEOUT_MS = 30_000;

/** A tokenization asked of frames that are removed, or removed while it is under way. */
export const REMOVED: TokenizeOutcome = { ok: false, error: { code: 'network', message: 'The card fields were removed.' } };

/** A per-instance channel id, 128 random bits; getRandomValues works on plain http too, unlike randomUUID. */
export function randomId(): string {
  return crypto.getRandomValues(new Uint32Array(4)).join('-');
}

/** Fields typed in digits (postal codes: Latin letters and digits): left-to-right on any page ("4111 1111", "12/30"). */
const DIGIT_FIELDS: ReadonlySet<FieldName> = new Set<FieldName>(['number', 'expirationDate', 'cvv', 'postalCode']);

interface Presentation {
  readonly style: FieldStyle;
  readonly lang?: string;
  readonly dir: 'ltr' | 'rtl';
}

const TRANSPARENT = new Set(['transparent', 'rgba(0, 0, 0, 0)']);

/**
 * The colour behind the container: the nearest ancestor that paints a background (the field box). None: '', which the
 * frame writes too, so a restyle clears the colour an earlier configure gave it (left out, the frame kept it: a dark
 * theme's background under the light theme's dark text, where the field box is transparent and the light page paints
 * nothing).
 */
function backgroundBehind(container: HTMLElement, view: Window): string {
  for (let element: Element | null = container; element; element = element.parentElement) {
    const colour = view.getComputedStyle(element).backgroundColor;
    if (colour && !TRANSPARENT.has(colour)) return colour;
  }
  return '';
}

/**
 * What the frame's input takes from where it is mounted: the container's font and colour (so the typed text matches
 * the merchant page, dark theme included) and the background behind it, its language and direction.
 */
function presentationOf(field: FieldName, container: HTMLElement): Presentation {
  const view = container.ownerDocument.defaultView;
  // Keys with no value go unset: the frame takes only strings.
  const lang = container.closest('[lang]')?.getAttribute('lang') || undefined;
  if (view === null) return { style: {}, dir: 'ltr', lang };
  const s = view.getComputedStyle(container);
  const pageDir = s.direction === 'rtl' ? 'rtl' : 'ltr';
  const dir = DIGIT_FIELDS.has(field) ? 'ltr' : pageDir;
  const style: FieldStyle = {
    color: s.color,
    fontFamily: s.fontFamily,
    fontSize: s.fontSize,
    fontWeight: s.fontWeight,
    lineHeight: s.lineHeight,
    textAlign: pageDir === 'rtl' ? 'right' : 'left',
    backgroundColor: backgroundBehind(container, view),
  };
  return { style, dir, lang };
}

/** A frame with its mount (the field and its container, which restyle() reads again). */
interface MountedFrame extends FieldMount {
  readonly iframe: HTMLIFrameElement;
  /** What its `configure` carries of the container's look: read as the frames are made, and again by restyle(). */
  presentation?: Presentation;
  ready: boolean;
  /** Messages sent before the frame announced `ready`, delivered on `ready`. */
  queue: ParentMessage[];
  lastConfigure: string | null;
}

export function createHostedFields(options: HostedFieldsOptions): HostedFields {
  const channel = randomId();
  const assetsOrigin = new URL(options.assetsUrl).origin;
  const frames = new Map<FieldName, MountedFrame>();
  /** A submit's module (settling, tokenization), imported once the shopper types in a field (or at a Pay before), and made. */
  let submitLoad: Promise<FramesSubmit> | null = null;
  let submit: FramesSubmit | null = null;
  let lastCvvSize: 3 | 4 | null | undefined;
  let tornDown = false;

  // The first mount's frame (the card view puts the number's first) loads alone, the others once it is ready: the
  // gateway origin's renderer commits and runs the frames' documents one after another, so started together the
  // number's waited for the others' work (issue 10). Theirs go in then: an iframe put in without its page still costs
  // the page a frame of its own, on the way to the number's (about 10 ms of CPU each in a trace).
  const held: (() => void)[] = [];
  for (const mount of options.mounts) {
    const doc = mount.container.ownerDocument;
    const iframe = doc.createElement('iframe');
    iframe.src = frameUrl(options.assetsUrl, mount.field, channel, doc.defaultView?.location.origin ?? '');
    iframe.name = `kassa-field-${mount.field}`;
    iframe.title = mount.title;
    iframe.className = 'kassa-field__iframe';
    iframe.setAttribute('aria-describedby', mount.describedBy);
    const insert = () => mount.container.replaceChildren(iframe);
    if (frames.size > 0) held.push(insert);
    else insert();
    frames.set(mount.field, { ...mount, iframe, ready: false, queue: [], lastConfigure: null });
  }
  // Every container's style read once the first frame has gone in: its page is asked for while the page computes the
  // style these reads wait for (on a first render the whole form's, 14-17 ms of its main thread in a profile; issue 10),
  // not after. One style computation for all: nothing else changes the page between the reads.
  restyle();

  /** Every frame's, a held one's too (its container is in the page; its `configure` waits for its `ready`). */
  function restyle(): boolean {
    for (const frame of frames.values()) frame.presentation = presentationOf(frame.field, frame.container);
    return true;
  }

  function deliver(frame: MountedFrame, message: ParentMessage): void {
    frame.iframe.contentWindow?.postMessage(envelope(channel, message), assetsOrigin);
  }

  function send(field: FieldName, message: ParentMessage): void {
    const frame = frames.get(field);
    if (frame === undefined || tornDown) return;
    if (frame.ready) deliver(frame, message);
    else frame.queue.push(message);
  }

  /** Imported once; an import that failed is asked again by the next keystroke or Pay (the browser's answer kept). */
  function loadSubmit(): Promise<FramesSubmit> {
    submitLoad ??= import('./submit.ts').then(
      (module) => {
        submit = module.createFramesSubmit(send);
        return submit;
      },
      (error: unknown) => {
        submitLoad = null;
        throw error;
      },
    );
    return submitLoad;
  }

  /**
   * `work` with a submit's module and the deadline `ms` from now, or `otherwise` when its download failed or has not
   * ended by then: a download that stalls (never ends, never fails) ends as a failed one, not a Pay busy for good.
   */
  function withSubmit<T>(
    ms: number,
    work: (made: FramesSubmit, deadline: number) => T | Promise<T>,
    otherwise: () => T,
  ): Promise<T> {
    const deadline = Date.now() + ms;
    return inTime(loadSubmit(), ms).then((made) => work(made, deadline), otherwise);
  }

  const route = createFrameRouter({
    assetsOrigin,
    channel,
    frameWindowOf: (field) => frames.get(field)?.iframe.contentWindow,
    onMessage: (field, message) => {
      if (message.type === 'ready') {
        const frame = frames.get(field);
        if (frame !== undefined) {
          frame.ready = true;
          const queued = frame.queue;
          frame.queue = [];
          for (const m of queued) deliver(frame, m);
        }
        // In a task of their own: the page first takes the number's frame as ready (its state, its render). A field
        // dropped meanwhile has its container out of the page: its frame does not load there.
        setTimeout(() => {
          for (const insert of held.splice(0)) if (!tornDown) insert();
        });
      } else if (message.type === 'synced' || message.type === 'syncFailed') {
        // Only a submit's module that was made has asked: one not loaded has nothing waiting for an answer.
        submit?.synced(field, message.type === 'synced');
      } else if (message.type === 'tokenizeAnswer') {
        submit?.answer(message.data);
      } else if (message.type === 'report' && message.data.event === 'input') {
        // The shopper types a card (or the browser fills it): a submit's module comes now, as the number frame's side
        // of the tokenization does.
        loadSubmit().catch(() => undefined);
      }
      options.onMessage(field, message);
    },
  });
  const host = options.mounts[0]?.container.ownerDocument.defaultView ?? null;
  host?.addEventListener('message', route);

  return {
    channel,
    restyle,
    configure(field, payload) {
      const frame = frames.get(field);
      if (frame === undefined) return;
      const message: ParentMessage = { type: 'configure', ...payload, ...frame.presentation };
      const key = JSON.stringify(message);
      if (key === frame.lastConfigure) return;
      frame.lastConfigure = key;
      // The CVV label changes with the brand; the frame's title follows so both names agree.
      frame.iframe.title = payload.label;
      send(field, message);
    },
    setCvvSize(size) {
      if (size === lastCvvSize) return;
      lastCvvSize = size;
      send('cvv', { type: 'setCvvSize', size });
    },
    focus(field) {
      send(field, { type: 'focus' });
    },
    clear() {
      for (const field of frames.keys()) send(field, { type: 'clear' });
    },
    // A module that did not download asks nothing: the card cannot be sent either.
    settle: (fields) =>
      withSubmit(
        SETTLE_TIMEOUT_MS,
        (made, deadline) => made.settle(fields, deadline),
        () => false,
      ),
    tokenize: (request) =>
      tornDown
        ? Promise.resolve(REMOVED)
        : withSubmit(
            TOKENIZE_TIMEOUT_MS,
            (made, deadline) => (tornDown ? REMOVED : made.tokenize(request, deadline)),
            // A browser keeps a module that failed to download: only a reload loads it (NOT_DOWNLOADED).
            (): TokenizeOutcome => ({
              ok: false,
              error: { code: 'not_downloaded', message: "A submit's module did not download." },
            }),
          ),
    teardown() {
      if (tornDown) return;
      tornDown = true;
      host?.removeEventListener('message', route);
      for (const frame of frames.values()) frame.iframe.remove();
      frames.clear();
      submit?.teardown();
    },
  };
}
