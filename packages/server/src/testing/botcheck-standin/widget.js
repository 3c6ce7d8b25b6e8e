// The bot-check stand-in's widget script: the JavaScript API of reCAPTCHA (v2 invisible or checkbox, v3), hCaptcha or Turnstile,
// chosen by the path it is loaded from, with the same globals, render parameters and callbacks as the real ones. Each
// widget is an "anchor" frame from the stand-in's origin that makes the token (and shows a challenge when the stand-in
// is told to), as the real widgets do. Test infrastructure only: the real providers cannot be reached here.
(() => {
  const script = document.currentScript;
  const url = new URL(script.src);
  const origin = url.origin;
  const kind = url.pathname.startsWith('/recaptcha')
    ? 'recaptcha'
    : url.pathname.startsWith('/hcaptcha')
      ? 'hcaptcha'
      : 'turnstile';
  const render_ = url.searchParams.get('render');
  const v3SiteKey = kind === 'recaptcha' && render_ !== null && render_ !== 'explicit' ? render_ : null;
  const widgets = new Map();
  // The titles the providers give their checkbox frames.
  const CHECKBOX_TITLES = {
    recaptcha: 'reCAPTCHA',
    hcaptcha: 'Widget containing checkbox for hCaptcha security challenge',
    turnstile: 'Widget containing a Cloudflare security challenge',
  };
  let nextId = 0;

  function containerOf(target) {
    if (typeof target !== 'string') return target;
    return document.getElementById(target) ?? document.querySelector(target);
  }

  function hide(frame) {
    Object.assign(frame.style, { position: 'absolute', width: '0', height: '0', border: '0', visibility: 'hidden' });
  }

  function show(frame) {
    Object.assign(frame.style, {
      position: 'fixed',
      top: '20%',
      left: '50%',
      transform: 'translateX(-50%)',
      width: '320px',
      height: '160px',
      border: '1px solid #ccc',
      background: '#fff',
      visibility: 'visible',
      zIndex: '2147483647',
    });
  }

  function render(target, params) {
    const id = kind === 'turnstile' ? `cf-chl-widget-${nextId++}` : nextId++;
    const frame = document.createElement('iframe');
    // A widget rendered to be seen is a checkbox in place, ticked by a person: reCAPTCHA v2 and hCaptcha without size
    // 'invisible', Turnstile unless it runs on execute.
    const checkbox = v3SiteKey === null && (kind === 'turnstile' ? params.execution !== 'execute' : params.size !== 'invisible');
    const query = new URLSearchParams({
      kind,
      sitekey: params.sitekey ?? '',
      hostname: location.hostname,
      parent: location.origin,
      action: params.action ?? '',
      cdata: params.cData ?? '',
      v3: v3SiteKey === null ? '' : '1',
      checkbox: checkbox ? '1' : '',
    });
    // reCAPTCHA's challenge frame is its "bframe": pages (Kassa's too) look for it to know a challenge is showing.
    const path = kind !== 'recaptcha' ? 'anchor' : checkbox ? 'recaptcha/api2/anchor' : 'recaptcha/api2/bframe';
    frame.src = `${origin}/${path}?${query}`;
    frame.title = !checkbox ? 'bot-check challenge' : CHECKBOX_TITLES[kind];
    if (checkbox) Object.assign(frame.style, { width: '304px', height: '128px', border: '0' });
    else hide(frame);
    const widget = { frame, params, checkbox, ready: false, queued: null, token: null, resolve: null };
    widgets.set(id, widget);
    containerOf(target).appendChild(frame);
    return id;
  }

  function send(widget, message) {
    if (widget.ready) widget.frame.contentWindow.postMessage(message, origin);
    else widget.queued = message;
  }

  function widgetOf(id) {
    if (id === undefined) return widgets.values().next().value;
    if (widgets.has(id)) return widgets.get(id);
    for (const [key, widget] of widgets) if (widget.frame.parentElement === containerOf(id)) return widgets.get(key);
    return undefined;
  }

  function execute(id, options) {
    if (v3SiteKey !== null) {
      // v3: execute(siteKey, { action }) answers a promise of a token; one hidden frame serves them all.
      let widget = widgets.get('v3');
      if (widget === undefined) {
        const holder = document.createElement('div');
        document.body.appendChild(holder);
        const made = render(holder, { sitekey: id });
        widget = widgets.get(made);
        widgets.delete(made);
        widgets.set('v3', widget);
      }
      return new Promise((resolve) => {
        widget.resolve = resolve;
        send(widget, { type: 'execute', action: options?.action ?? '' });
      });
    }
    const widget = widgetOf(id);
    if (widget === undefined) throw new Error('bot-check stand-in: no such widget');
    send(widget, { type: 'execute', action: widget.params.action ?? '' });
    return undefined;
  }

  function reset(id) {
    const widget = widgetOf(id);
    if (widget) widget.token = null;
  }

  function remove(id) {
    const widget = widgetOf(id);
    if (!widget) return;
    widget.frame.remove();
    for (const [key, value] of widgets) if (value === widget) widgets.delete(key);
  }

  const call = (widget, name, ...args) => {
    const fn = widget.params[name];
    if (typeof fn === 'function') fn(...args);
    else if (typeof fn === 'string' && typeof window[fn] === 'function') window[fn](...args);
  };

  window.addEventListener('message', (event) => {
    if (event.origin !== origin) return;
    const widget = [...widgets.values()].find((w) => w.frame.contentWindow === event.source);
    if (widget === undefined) return;
    const data = event.data;
    if (data.type === 'ready') {
      widget.ready = true;
      if (widget.queued !== null) {
        widget.frame.contentWindow.postMessage(widget.queued, origin);
        widget.queued = null;
      }
    } else if (widget.checkbox) {
      // The checkbox stays where the page put it, ticked once the token is made.
      if (data.type === 'token') {
        widget.token = data.token;
        call(widget, 'callback', data.token);
      } else if (data.type === 'error') call(widget, 'error-callback', data.code);
    } else if (data.type === 'challenge-open') {
      show(widget.frame);
      call(widget, kind === 'turnstile' ? 'before-interactive-callback' : 'open-callback');
    } else if (data.type === 'challenge-close') {
      hide(widget.frame);
      call(widget, kind === 'turnstile' ? 'after-interactive-callback' : 'close-callback');
    } else if (data.type === 'token') {
      hide(widget.frame);
      widget.token = data.token;
      if (widget.resolve !== null) {
        widget.resolve(data.token);
        widget.resolve = null;
      } else call(widget, 'callback', data.token);
    } else if (data.type === 'error') {
      call(widget, 'error-callback', data.code);
    }
  });

  const api = { render, execute, reset, remove, getResponse: (id) => widgetOf(id)?.token ?? '' };
  if (kind === 'recaptcha') window.grecaptcha = { ...api, ready: (callback) => setTimeout(callback, 0) };
  else window[kind] = api;
  const onload = url.searchParams.get('onload');
  // Like the real scripts, the API is announced after the script has run (they load more code first).
  if (onload !== null) setTimeout(() => window[onload]?.(), 0);
})();
