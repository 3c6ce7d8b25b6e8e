import { describe, expect, it } from 'vitest';
import { preloadSandboxFields } from './preload.ts';
import { frameUrl } from './protocol.ts';

const token = btoa(
  JSON.stringify({
    authorizationFingerprint: 'fingerprint',
    configUrl: 'http://127.0.0.1:8090/merchants/m/client_api/v1/configuration',
    clientApiUrl: 'http://127.0.0.1:8090/merchants/m/client_api',
    assetsUrl: 'http://127.0.0.1:8090/',
  }),
);

/** Just enough DOM: a body that records what is appended, frames that record their attributes. */
function fakeDocument() {
  const appended: FakeFrame[] = [];
  class FakeFrame {
    src = '';
    title = '';
    hidden = false;
    tabIndex = 0;
    attributes = new Map<string, string>();
    removed = false;
    setAttribute(name: string, value: string): void {
      this.attributes.set(name, value);
    }
    remove(): void {
      this.removed = true;
    }
  }
  const doc = {
    defaultView: { location: { origin: 'http://shop.example' } },
    createElement: () => new FakeFrame(),
    body: { append: (frame: FakeFrame) => appended.push(frame) },
  };
  return { doc: doc as unknown as Document, appended };
}

describe('preloadSandboxFields', () => {
  it("loads the card fields' page from the token's assets origin in a hidden frame with no channel, removed on demand", () => {
    const { doc, appended } = fakeDocument();
    const remove = preloadSandboxFields(token, doc);
    expect(appended).toHaveLength(1);
    const [frame] = appended;
    // The page the field frames load (the fragment is not part of what the browser caches); no channel: the frame's
    // script takes no field and says nothing.
    expect(frame?.src.split('#')[0]).toBe(frameUrl('http://127.0.0.1:8090', 'number', 'c', '').split('#')[0]);
    expect(JSON.parse(decodeURIComponent(frame?.src.split('#')[1] ?? ''))).toMatchObject({ channel: '' });
    expect(frame).toMatchObject({ hidden: true, tabIndex: -1, removed: false });
    expect(frame?.attributes.get('aria-hidden')).toBe('true');
    remove();
    expect(frame?.removed).toBe(true);
  });

  it('preloads nothing for a token it cannot read (the checkout reports it when it loads)', () => {
    const { doc, appended } = fakeDocument();
    expect(() => preloadSandboxFields('not a token', doc)()).not.toThrow();
    expect(appended).toHaveLength(0);
  });
});
