import type { BotcheckSettings } from '../api/types.ts';
import { messages } from '../i18n/messages.ts';
import { BotcheckError } from './botcheck-error.ts';

type WidgetSettings = Exclude<BotcheckSettings, { provider: 'altcha' }>;
type WidgetId = string | number;

/** The part of reCAPTCHA's, hCaptcha's and Turnstile's browser API Kassa uses (the same shape for all three). */
interface WidgetApi {
  render(container: HTMLElement, params: Record<string, unknown>): WidgetId;
  execute(id: WidgetId, options?: { action: string }): Promise<string> | undefined;
  reset(id: WidgetId): void;
}

/** What one execution listens to: the widget's callbacks are bound once, at render, and lead here. */
interface Listener {
  token(token: string): void;
  failed(): void;
  /** A visible challenge opened (true) or closed (false): the execute watchdog waits meanwhile. */
  challenge(open: boolean): void;
}

const GLOBALS = {
  'recaptcha-v2': 'grecaptcha',
  'recaptcha-v2-checkbox': 'grecaptcha',
  'recaptcha-v3': 'grecaptcha',
  hcaptcha: 'hcaptcha',
  turnstile: 'turnstile',
} as const;

/** How often the execute watchdog looks whether a visible challenge is open. */
const WATCH_MS = 200;

const loads = new Map<string, Promise<WidgetApi>>();
let loadCount = 0;

/**
 * Loads the provider's script (explicit rendering, the page names the onload callback) within the anchor time-out.
 * Under the strict CSP the script's origin is allowed by the server (script-src, frame-src). A load that fails or
 * times out is forgotten, so Pay again loads it afresh.
 */
function loadApi(settings: WidgetSettings): Promise<WidgetApi> {
  const cached = loads.get(settings.scriptUrl);
  if (cached) return cached;
  const loading = new Promise<WidgetApi>((resolve, reject) => {
    const callback = `kassaBotcheckLoaded${++loadCount}`;
    const script = document.createElement('script');
    const url = new URL(settings.scriptUrl);
    url.searchParams.set('render', settings.provider === 'recaptcha-v3' ? settings.siteKey : 'explicit');
    url.searchParams.set('onload', callback);
    const give = (error: BotcheckError) => {
      clearTimeout(timer);
      Reflect.deleteProperty(window, callback);
      script.remove();
      loads.delete(settings.scriptUrl);
      reject(error);
    };
    const timer = setTimeout(() => give(new BotcheckError('botcheck_anchor_timeout')), settings.anchorTimeoutMs);
    Reflect.set(window, callback, () => {
      clearTimeout(timer);
      Reflect.deleteProperty(window, callback);
      const api: unknown = Reflect.get(window, GLOBALS[settings.provider]);
      if (typeof api === 'object' && api !== null && 'execute' in api) resolve(api as WidgetApi);
      else give(new BotcheckError('botcheck_unavailable'));
    });
    script.async = true;
    script.src = url.toString();
    script.addEventListener('error', () => give(new BotcheckError('botcheck_unavailable')));
    document.head.append(script);
  });
  loads.set(settings.scriptUrl, loading);
  return loading;
}

interface Rendered {
  id: WidgetId;
  listener: { current: Listener | null };
}

const rendered = new Map<string, Rendered>();

/** One invisible widget per provider and site key, rendered once; its callbacks lead to the current execution. */
function renderOnce(api: WidgetApi, settings: WidgetSettings): Rendered {
  const key = `${settings.provider}:${settings.siteKey}:${settings.action}`;
  const existing = rendered.get(key);
  if (existing) return existing;
  const listener: Rendered['listener'] = { current: null };
  const container = document.createElement('div');
  document.body.append(container);
  const params: Record<string, unknown> = {
    sitekey: settings.siteKey,
    callback: (token: string) => listener.current?.token(token),
    'error-callback': () => listener.current?.failed(),
  };
  if (settings.provider === 'turnstile') {
    // Runs when executed, shows itself only if a person must interact; cData carries the session binding.
    Object.assign(params, {
      action: settings.action,
      cData: settings.binding,
      execution: 'execute',
      appearance: 'interaction-only',
      'before-interactive-callback': () => listener.current?.challenge(true),
      'after-interactive-callback': () => listener.current?.challenge(false),
    });
  } else {
    Object.assign(params, { size: 'invisible' });
    if (settings.provider === 'hcaptcha') {
      Object.assign(params, {
        'open-callback': () => listener.current?.challenge(true),
        'close-callback': () => listener.current?.challenge(false),
      });
    }
  }
  const made = { id: api.render(container, params), listener };
  rendered.set(key, made);
  return made;
}

/**
 * A widget a person completes, shown where they can: reCAPTCHA v2's checkbox, or the shop alert's interactive widget
 * (reCAPTCHA's checkbox, hCaptcha's or Turnstile's visible one: settings with a `tokenPrefix`). A panel over the page,
 * made afresh each time (a token is single use) and removed when done. While it shows, the person is the one to act,
 * so it counts as a visible challenge: the execute watchdog waits (botcheck.md: a person still solving is not cut off).
 */
function renderVisible(api: WidgetApi, settings: WidgetSettings, listener: Listener): { id: WidgetId; remove(): void } {
  const panel = document.createElement('div');
  panel.className = 'botcheck-checkbox card';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', messages.botcheckCheckboxTitle);
  const prompt = document.createElement('p');
  prompt.textContent = settings.tokenPrefix === undefined ? messages.botcheckCheckboxPrompt : messages.botcheckAlertPrompt;
  const container = document.createElement('div');
  panel.append(prompt, container);
  document.body.append(panel);
  const id = api.render(container, {
    sitekey: settings.siteKey,
    callback: (token: string) => listener.token(token),
    'error-callback': () => listener.failed(),
    // A ticked box's token lapses after two minutes unused: the box unticks itself and the person ticks it again.
    'expired-callback': () => undefined,
    // Turnstile reports the action and cData (the session binding) back to the server, which checks both.
    ...(settings.provider === 'turnstile' ? { action: settings.action, cData: settings.binding } : {}),
  });
  return { id, remove: () => panel.remove() };
}

/**
 * reCAPTCHA has no callback for its challenge opening: its challenge frame (the "bframe") is visible while a person
 * is solving one.
 */
function recaptchaChallengeVisible(): boolean {
  return [
    ...document.querySelectorAll<HTMLIFrameElement>(
      'iframe[src*="/recaptcha/api2/bframe"], iframe[src*="/recaptcha/enterprise/bframe"]',
    ),
  ].some((frame) => getComputedStyle(frame).visibility === 'visible' && frame.getBoundingClientRect().width > 0);
}

/**
 * Runs a third-party widget: loads it within the anchor time-out, executes it and waits for the token within the
 * execute time-out. The execute watchdog does not count the time a visible challenge is open: a person still solving
 * one is not cut off (botcheck.md).
 */
export async function runWidget(settings: WidgetSettings): Promise<string> {
  const api = await loadApi(settings);
  let challengeOpen = false;
  const checkbox = settings.provider === 'recaptcha-v2-checkbox' || settings.tokenPrefix !== undefined;
  const challengeVisible = () =>
    checkbox || challengeOpen || (settings.provider.startsWith('recaptcha') && recaptchaChallengeVisible());
  return new Promise<string>((resolve, reject) => {
    let waited = 0;
    let done = false;
    const watchdog = setInterval(() => {
      if (challengeVisible()) return;
      waited += WATCH_MS;
      if (waited >= settings.executeTimeoutMs) finish(() => reject(new BotcheckError('botcheck_execute_timeout')));
    }, WATCH_MS);
    const listener: Listener = {
      // The alert's widget's token is marked so the server verifies it with that provider's secret.
      token: (token) => finish(() => resolve(`${settings.tokenPrefix ?? ''}${token}`)),
      failed: () => finish(() => reject(new BotcheckError('botcheck_unavailable'))),
      challenge: (open) => {
        challengeOpen = open;
      },
    };
    let widget: Rendered | null = null;
    let shown: { remove(): void } | null = null;
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      shown?.remove();
      if (widget !== null) {
        widget.listener.current = null;
        // A token is single use: the next execution starts from a fresh widget.
        api.reset(widget.id);
      }
      settle();
    }
    try {
      if (checkbox) {
        shown = renderVisible(api, settings, listener);
      } else if (settings.provider === 'recaptcha-v3') {
        // v3 has no widget to render: execute(siteKey, { action }) answers a promise of a scored token.
        void Promise.resolve(api.execute(settings.siteKey, { action: settings.action })).then(
          (token) => listener.token(token ?? ''),
          () => listener.failed(),
        );
      } else {
        widget = renderOnce(api, settings);
        widget.listener.current = listener;
        void api.execute(widget.id);
      }
    } catch {
      listener.failed();
    }
  });
}
