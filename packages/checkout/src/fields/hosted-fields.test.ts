import { describe, expect, it, vi } from 'vitest';
import { createHostedFields, type HostedFields, REMOVED, SETTLE_TIMEOUT_MS, TOKENIZE_TIMEOUT_MS } from './hosted-fields.ts';
import * as submitModule from './submit.ts';
import { createFramesSubmit } from './submit.ts';
import type { FieldName } from '../machine/checkout.types.ts';
import type { FrameMessage } from './protocol.ts';

// The real module, its factory watched: when the hosted fields import it.
vi.mock('./submit.ts', { spy: true });

const assetsUrl = 'http://127.0.0.1:8090';
const parentOrigin = 'http://shop.example';
const request = { authorizationFingerprint: 'fp', clientApiUrl: 'x', fields: [] };

/**
 * The next download of a submit's module, held as a network that neither answers nor fails would: `asked` once it has
 * started (vitest's module loading runs on real timers), until `end()` lets it finish (later tests import the module).
 */
function heldDownload(): { asked: Promise<void>; end(): void } {
  let finish: ((module: typeof submitModule) => void) | undefined;
  const asked = new Promise<void>((started) => {
    vi.doMock('./submit.ts', () => {
      started();
      return new Promise<typeof submitModule>((resolve) => (finish = resolve));
    });
  });
  return {
    asked,
    end() {
      vi.doUnmock('./submit.ts');
      finish?.(submitModule);
    },
  };
}

const actualSubmit = await vi.importActual<typeof submitModule>('./submit.ts');

/**
 * Resolves once the hosted fields have imported a submit's module (its factory watched) and made their side of the
 * submit with it. Asked before what starts the import: it waits for the import itself, not for vi.waitFor's second,
 * which a cold import under load outlasts.
 */
function submitMade(): Promise<void> {
  return new Promise((resolve) => {
    vi.mocked(createFramesSubmit).mockImplementationOnce((send) => {
      resolve();
      return actualSubmit.createFramesSubmit(send);
    });
  });
}

/** What a submit's module sends a frame once imported, as the frame receives it. */
interface Sent {
  readonly type: string;
  readonly requestId: string;
}

/** The tokenization the number frame is asked for next: sent once a submit's module is imported, however long that takes. */
function tokenizeSent(frame: { next(type: string): Promise<Sent> } | undefined): Promise<Sent> {
  if (frame === undefined) throw new Error('no number frame');
  return frame.next('tokenize');
}

/** Just enough DOM for the factory: a window that records listeners, frames that record what they receive. */
function fakeDom(page: { lang: string; direction: 'ltr' | 'rtl' } = { lang: 'en', direction: 'ltr' }) {
  const listeners = new Set<(event: MessageEvent) => void>();
  const frames: FakeFrame[] = [];
  /** The style reads and frame insertions, in order. */
  const steps: string[] = [];
  /** The containers' text colour, which the page's theme sets. */
  const look = { color: 'rgb(0, 0, 0)', backgroundColor: 'rgb(29, 33, 41)' };
  class FakeFrame {
    src = '';
    name = '';
    title = '';
    className = '';
    attributes = new Map<string, string>();
    removed = false;
    inserted = false;
    received: unknown[] = [];
    /** Those waiting for the next message of a type. */
    awaited: Array<[type: string, take: (data: Sent) => void]> = [];
    contentWindow = {
      postMessage: (data: unknown, origin: string) => {
        this.received.push({ data, origin });
        const type = (data as Sent).type;
        const taken = this.awaited.filter(([awaited]) => awaited === type);
        this.awaited = this.awaited.filter(([awaited]) => awaited !== type);
        for (const [, take] of taken) take(data as Sent);
      },
    };
    /** The next message of `type` posted to this frame. */
    next(type: string): Promise<Sent> {
      return new Promise((take) => this.awaited.push([type, take]));
    }
    setAttribute(name: string, value: string): void {
      this.attributes.set(name, value);
    }
    remove(): void {
      this.removed = true;
    }
  }
  const view = {
    location: { origin: parentOrigin },
    getComputedStyle: () => {
      steps.push('style read');
      return {
        color: look.color,
        fontFamily: 'Inter',
        fontSize: '16px',
        fontWeight: '400',
        lineHeight: '24px',
        direction: page.direction,
        backgroundColor: look.backgroundColor,
      };
    },
    addEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: MessageEvent) => void) => listeners.delete(listener),
  };
  const doc = {
    defaultView: view,
    createElement: () => {
      const frame = new FakeFrame();
      frames.push(frame);
      return frame;
    },
  };
  const sheet = { getAttribute: (name: string) => (name === 'lang' ? page.lang : null) };
  const container = (): HTMLElement =>
    ({
      ownerDocument: doc,
      replaceChildren: (frame: FakeFrame) => {
        steps.push(`${frame.name} in`);
        frame.inserted = true;
      },
      closest: (selector: string) => (selector === '[lang]' ? sheet : null),
    }) as unknown as HTMLElement;
  const post = (frame: FakeFrame | undefined, data: Record<string, unknown>, origin = new URL(assetsUrl).origin): void => {
    for (const listener of [...listeners]) listener({ origin, source: frame?.contentWindow, data } as unknown as MessageEvent);
  };
  return { frames, container, post, listeners, steps, look };
}

function setup(page?: Parameters<typeof fakeDom>[0], names: readonly FieldName[] = ['number', 'cvv']) {
  const dom = fakeDom(page);
  const received: Array<[FieldName, FrameMessage]> = [];
  const fields = createHostedFields({
    assetsUrl,
    mounts: names.map((field) => ({ field, container: dom.container(), title: field, describedBy: `${field}-error` })),
    onMessage: (field, message) => received.push([field, message]),
  });
  const [number, cvv] = dom.frames;
  const from = (data: Record<string, unknown>) => ({ source: 'kassa-hosted-fields', channel: fields.channel, ...data });
  return { dom, fields, received, number, cvv, from };
}

/** The number's frame ready and the shopper typing in it: a submit's module is asked for. */
function typed() {
  const made = setup();
  made.dom.post(made.number, made.from({ type: 'ready', field: 'number' }));
  const state = { isEmpty: false, isValid: false, isPotentiallyValid: true, isFocused: true };
  made.dom.post(made.number, made.from({ type: 'state', field: 'number', event: 'input', state }));
  return made;
}

/** `test` on fake timers, the shopper typing while the download of a submit's module is held (`end()` lets it finish). */
async function whileDownloadHeld(
  test: (made: ReturnType<typeof typed>, download: ReturnType<typeof heldDownload>) => Promise<void>,
): Promise<void> {
  const download = heldDownload();
  try {
    const made = typed();
    await download.asked;
    vi.useFakeTimers();
    await test(made, download);
  } finally {
    vi.useRealTimers();
    download.end();
  }
}

/**
 * `start` (a settling or a tokenization, whose time is `ms`) while a submit's module downloads, the module arriving 10 ms
 * before that time: the frame is asked then (`asks`), with the 10 ms left, and the call ends with `ends` when they are up.
 */
function arrivesLate(start: (fields: HostedFields) => Promise<unknown>, ms: number, asks: string, ends: unknown) {
  return whileDownloadHeld(async ({ fields, number }, download) => {
    const done = vi.fn();
    void start(fields).then(done);
    await vi.advanceTimersByTimeAsync(ms - 10);
    download.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(number?.received.at(-1)).toMatchObject({ data: { type: asks } });
    await vi.advanceTimersByTimeAsync(9);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledWith(ends);
  });
}

describe('hosted fields', () => {
  it('creates named, titled frames pointing at the gateway with our origin in the fragment', () => {
    const { number, fields } = setup();
    expect(number?.name).toBe('kassa-field-number');
    expect(number?.title).toBe('number');
    expect(number?.attributes.get('aria-describedby')).toBe('number-error');
    const fragment = JSON.parse(decodeURIComponent(number?.src.split('#')[1] ?? ''));
    expect(fragment).toEqual({ field: 'number', channel: fields.channel, parentOrigin });
  });

  it('loads the first frame alone, and puts the others in once it is ready', async () => {
    const { dom, number, from } = setup(undefined, ['number', 'cvv', 'postalCode']);
    const [, ...others] = dom.frames;
    expect(number?.inserted).toBe(true);
    expect(others.map((frame) => [frame.name, frame.inserted])).toEqual([
      ['kassa-field-cvv', false],
      ['kassa-field-postalCode', false],
    ]);
    dom.post(number, from({ type: 'ready', field: 'number' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(others.map((frame) => frame.inserted)).toEqual([true, true]);
  });

  it("puts the first frame in before it reads the containers' style, which waits for the page's style computation", () => {
    const { dom } = setup(undefined, ['number', 'cvv']);
    expect(dom.steps[0]).toBe('kassa-field-number in');
    expect(dom.steps.slice(1).every((step) => step === 'style read')).toBe(true);
  });

  it('puts no frame in once torn down, though the first was ready', async () => {
    const { dom, fields, number, cvv, from } = setup();
    dom.post(number, from({ type: 'ready', field: 'number' }));
    fields.teardown();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cvv?.inserted).toBe(false);
  });

  it('queues messages until the frame is ready, then posts them to the gateway origin only', () => {
    const { fields, dom, number, from } = setup();
    fields.configure('number', { label: 'Card number', required: true, invalid: false });
    fields.configure('number', { label: 'Card number', required: true, invalid: false });
    expect(number?.received).toEqual([]);
    dom.post(number, from({ type: 'ready', field: 'number' }));
    expect(number?.received).toHaveLength(1);
    expect(number?.received[0]).toMatchObject({
      origin: 'http://127.0.0.1:8090',
      data: { source: 'kassa-hosted-fields', type: 'configure', label: 'Card number', style: { fontFamily: 'Inter' } },
    });
  });

  it("restyle() reads each container's style again: a frame's next configure carries the new colour, a frame not yet in (held) too, and nothing is cleared", () => {
    const { fields, dom, number, cvv, from } = setup();
    const payload = { label: 'Card number', required: true, invalid: false };
    dom.post(number, from({ type: 'ready', field: 'number' }));
    fields.configure('number', payload);
    fields.configure('cvv', { ...payload, label: 'CVV' });
    dom.look.color = 'rgb(236, 238, 241)';
    expect(fields.restyle()).toBe(true);
    fields.configure('number', payload);
    fields.configure('cvv', { ...payload, label: 'CVV' });
    const sent = (frame: typeof number) => frame?.received.map((m) => (m as { data: unknown }).data);
    expect(sent(number)).toEqual([
      expect.objectContaining({
        type: 'configure',
        label: 'Card number',
        style: expect.objectContaining({ color: 'rgb(0, 0, 0)' }),
      }),
      expect.objectContaining({
        type: 'configure',
        label: 'Card number',
        style: expect.objectContaining({ color: 'rgb(236, 238, 241)' }),
      }),
    ]);
    // The CVV's frame, put in once the number's is ready, has both once ready itself: the last in the new colour.
    dom.post(cvv, from({ type: 'ready', field: 'cvv' }));
    expect(sent(cvv)?.at(-1)).toMatchObject({ type: 'configure', label: 'CVV', style: { color: 'rgb(236, 238, 241)' } });
    // The same configure in the same style is not sent again.
    expect(fields.restyle()).toBe(true);
    fields.configure('number', payload);
    expect(number?.received).toHaveLength(2);
    // A page that now paints no background behind the field (a dark theme's left for one that paints none): the
    // background the frame was given before is cleared ('' is written), not kept under the new text colour.
    dom.look.backgroundColor = 'rgba(0, 0, 0, 0)';
    expect(fields.restyle()).toBe(true);
    fields.configure('number', payload);
    expect(sent(number)?.at(-1)).toMatchObject({ type: 'configure', style: { backgroundColor: '' } });
  });

  it("gives each frame the page's language; on a right-to-left page the name follows it, digits stay left-to-right", () => {
    const { fields, dom, from } = setup({ lang: 'ar', direction: 'rtl' }, ['cardholderName', 'number']);
    const [name, number] = dom.frames;
    for (const [field, frame] of [
      ['cardholderName', name],
      ['number', number],
    ] as const) {
      dom.post(frame, from({ type: 'ready', field }));
      fields.configure(field, { label: field, required: true, invalid: false });
    }
    expect(name?.received[0]).toMatchObject({
      data: { lang: 'ar', dir: 'rtl', style: { textAlign: 'right', backgroundColor: 'rgb(29, 33, 41)' } },
    });
    expect(number?.received[0]).toMatchObject({ data: { lang: 'ar', dir: 'ltr', style: { textAlign: 'right' } } });

    const english = setup();
    english.dom.post(english.number, english.from({ type: 'ready', field: 'number' }));
    english.fields.configure('number', { label: 'Card number', required: true, invalid: false });
    expect(english.number?.received[0]).toMatchObject({ data: { lang: 'en', dir: 'ltr', style: { textAlign: 'left' } } });
  });

  it('ignores a sibling frame speaking for the number field and another origin', () => {
    const { dom, received, cvv, number, from } = setup();
    dom.post(cvv, from({ type: 'cardTypeChange', cards: [] }));
    dom.post(number, from({ type: 'cardTypeChange', cards: [] }), 'http://evil.example');
    expect(received).toEqual([]);
    dom.post(number, from({ type: 'cardTypeChange', cards: [] }));
    expect(received).toEqual([
      ['number', { type: 'report', field: 'number', data: from({ type: 'cardTypeChange', cards: [] }) }],
    ]);
  });

  it("imports a submit's module once the shopper types in a card field, as the number frame its tokenization", async () => {
    vi.mocked(createFramesSubmit).mockClear();
    const { dom, number, cvv, from } = setup();
    const report = (frame: typeof number, field: FieldName, event: string) =>
      dom.post(
        frame,
        from({
          type: 'state',
          field,
          event,
          state: { isEmpty: false, isValid: false, isPotentiallyValid: true, isFocused: true },
        }),
      );
    dom.post(number, from({ type: 'ready', field: 'number' }));
    dom.post(cvv, from({ type: 'ready', field: 'cvv' }));
    report(number, 'number', 'focus');
    report(number, 'number', 'blur');
    report(cvv, 'cvv', 'validate');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(createFramesSubmit).not.toHaveBeenCalled();
    const made = submitMade();
    report(cvv, 'cvv', 'input');
    report(number, 'number', 'input');
    await made;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(createFramesSubmit).toHaveBeenCalledTimes(1);
  });

  it("without a submit's module (its download failed): the settling not heard, a Pay says it did not download, and the next asks again", async () => {
    let asked = 0;
    vi.doMock('./submit.ts', async (original) => {
      asked += 1;
      if (asked <= 2) throw new TypeError('Failed to fetch dynamically imported module');
      return original();
    });
    try {
      const { dom, fields, number, from } = setup();
      dom.post(number, from({ type: 'ready', field: 'number' }));
      await expect(fields.settle(['number'])).resolves.toBe(false);
      expect(number?.received).toEqual([]);
      await expect(fields.tokenize(request)).resolves.toMatchObject({ ok: false, error: { code: 'not_downloaded' } });
      // Each failed import asked again (a browser may answer it now): the third downloads, and the card goes to the frame.
      const paid = fields.tokenize(request);
      const sent = await tokenizeSent(number);
      dom.post(
        number,
        from({ type: 'tokenizeFailed', requestId: sent.requestId, error: { code: 'invalid_fields', message: 'bad' } }),
      );
      await expect(paid).resolves.toMatchObject({ ok: false, error: { code: 'invalid_fields' } });
      expect(asked).toBe(3);
    } finally {
      vi.doUnmock('./submit.ts');
    }
  });

  it("without a submit's module because its download stalls: the settling ends at its time-out not heard, a Pay at the tokenization's as not downloaded", () =>
    whileDownloadHeld(async ({ fields, number }) => {
      const settled = vi.fn();
      void fields.settle(['number']).then(settled);
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 1);
      expect(settled).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toHaveBeenCalledWith(false);
      expect(number?.received).toEqual([]);
      const paid = vi.fn();
      void fields.tokenize(request).then(paid);
      await vi.advanceTimersByTimeAsync(TOKENIZE_TIMEOUT_MS - 1);
      expect(paid).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(paid).toHaveBeenCalledWith({ ok: false, error: { code: 'not_downloaded', message: expect.any(String) } });
    }));

  it("counts the wait for a submit's module in the settling's time-out", () =>
    arrivesLate((fields) => fields.settle(['number']), SETTLE_TIMEOUT_MS, 'sync', false));

  it("counts the wait for a submit's module in the tokenization's time limit", () =>
    arrivesLate((fields) => fields.tokenize(request), TOKENIZE_TIMEOUT_MS, 'tokenize', {
      ok: false,
      error: { code: 'timeout', message: 'Tokenization timed out.' },
    }));

  it('matches tokenization answers by request id and reports no answer in time as a time-out', async () => {
    const { dom, fields, number, from } = setup();
    dom.post(number, from({ type: 'ready', field: 'number' }));
    const pending = fields.tokenize({ ...request, clientApiUrl: 'http://127.0.0.1:8090/x', fields: ['number'] });
    // Posted once a submit's module is in (a Pay before the shopper typed imports it then).
    const sent = await tokenizeSent(number);
    dom.post(number, from({ type: 'tokenizeFailed', requestId: 'someone-else', error: { code: 'gateway', message: 'x' } }));
    dom.post(
      number,
      from({
        type: 'tokenizeFailed',
        requestId: sent.requestId,
        error: { code: 'invalid_fields', message: 'bad', fields: ['cvv'] },
      }),
    );
    await expect(pending).resolves.toEqual({ ok: false, error: { code: 'invalid_fields', message: 'bad', fields: ['cvv'] } });
    vi.useFakeTimers();
    try {
      const unanswered = vi.fn();
      void fields.tokenize(request).then(unanswered);
      await vi.advanceTimersByTimeAsync(TOKENIZE_TIMEOUT_MS);
      expect(unanswered).toHaveBeenCalledWith({ ok: false, error: { code: 'timeout', message: 'Tokenization timed out.' } });
    } finally {
      vi.useRealTimers();
    }
    // Removed frames: a tokenization under way settles as a network failure, and none is asked any more.
    const cut = fields.tokenize(request);
    fields.teardown();
    await expect(cut).resolves.toEqual(REMOVED);
    await expect(fields.tokenize(request)).resolves.toEqual(REMOVED);
  });

  it('settles once every frame asked has answered its sync, the reports it sent before handed on first', async () => {
    const { dom, fields, number, cvv, received, from } = setup();
    for (const [frame, field] of [
      [number, 'number'],
      [cvv, 'cvv'],
    ] as const)
      dom.post(frame, from({ type: 'ready', field }));
    let settled = false;
    const settling = fields.settle(['number', 'cvv']).then((heard) => {
      settled = true;
      return heard;
    });
    // Asked once a submit's module is in (a Pay before the shopper typed imports it then), however long that takes.
    await Promise.all([number?.next('sync'), cvv?.next('sync')]);
    const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true };
    dom.post(number, from({ type: 'synced', field: 'number' }));
    // The CVV's last report was on its way when the request went out: it arrives first, then the answer.
    dom.post(cvv, from({ type: 'state', field: 'cvv', event: 'input', state }));
    // Another frame speaking for the CVV is not its answer.
    dom.post(number, from({ type: 'synced', field: 'cvv' }));
    await Promise.resolve();
    expect(settled).toBe(false);
    dom.post(cvv, from({ type: 'synced', field: 'cvv' }));
    await expect(settling).resolves.toBe(true);
    expect(received.filter(([, message]) => message.type === 'report')).toEqual([
      ['cvv', { type: 'report', field: 'cvv', data: from({ type: 'state', field: 'cvv', event: 'input', state }) }],
    ]);
  });

  it('waits for a frame whose card rules arrive 10 s after the Pay (a slow network): its answer comes once they are in', async () => {
    const { dom, fields, number, from } = typed();
    // A submit's module in (a settling of no field asks nothing), before the clock is the test's.
    await expect(fields.settle([])).resolves.toBe(true);
    vi.useFakeTimers();
    try {
      const settled = vi.fn();
      void fields.settle(['number']).then(settled);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(number?.received.at(-1)).toMatchObject({ data: { type: 'sync' } });
      expect(settled).not.toHaveBeenCalled();
      dom.post(number, from({ type: 'synced', field: 'number' }));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toHaveBeenCalledWith(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('settles false at once when a frame answers that its card rules could not be imported (syncFailed), not at SETTLE_TIMEOUT_MS', async () => {
    const { dom, fields, number, from } = typed();
    await expect(fields.settle([])).resolves.toBe(true);
    vi.useFakeTimers();
    try {
      const settled = vi.fn();
      // The CVV's frame has not answered yet: the number's failure is enough.
      void fields.settle(['number', 'cvv']).then(settled);
      await vi.advanceTimersByTimeAsync(0);
      dom.post(number, from({ type: 'syncFailed', field: 'number' }));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toHaveBeenCalledWith(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the CVV size only when it changes, and tears everything down', () => {
    const { dom, fields, cvv, number, from } = setup();
    dom.post(cvv, from({ type: 'ready', field: 'cvv' }));
    fields.setCvvSize(4);
    fields.setCvvSize(4);
    fields.setCvvSize(null);
    expect(cvv?.received.map((m) => (m as { data: { size: unknown } }).data.size)).toEqual([4, null]);
    fields.teardown();
    expect(dom.listeners.size).toBe(0);
    expect(number?.removed && cvv?.removed).toBe(true);
  });
});
