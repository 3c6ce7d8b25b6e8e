import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FakeInput } from '../../testing/fake-input.ts';
import { bundleHostedFieldScripts } from './bundle.ts';
import { MESSAGE_SOURCE } from './protocol.ts';

// Runs the bundled frame script (what browsers receive) against a minimal page: checks its wiring to the URL
// fragment, window.parent and the message origin check. The field logic itself is tested in field.test.ts.

const PARENT_ORIGIN = 'https://shop.example';

async function loadFrame(fragment: unknown) {
  const input = new FakeInput();
  const toParent: Array<[unknown, string]> = [];
  const parent = { postMessage: (message: unknown, origin: string) => void toParent.push([message, origin]) };
  const window = Object.assign(new EventTarget(), { parent });
  const channels: BroadcastChannel[] = [];
  class TrackedBroadcastChannel extends BroadcastChannel {
    constructor(name: string) {
      super(name);
      channels.push(this);
    }
  }
  const context = vm.createContext({
    window,
    location: {
      hash: `#${encodeURIComponent(JSON.stringify(fragment))}`,
      origin: 'http://127.0.0.1:8090',
      href: 'http://127.0.0.1:8090/hosted-fields/frame.html',
    },
    document: { getElementById: (id: string) => (id === 'field' ? input : null) },
    HTMLInputElement: FakeInput,
    BroadcastChannel: TrackedBroadcastChannel,
    fetch,
    setTimeout,
    clearTimeout,
    URL,
  });
  // Its import of the card rules fails here (no module loader in the context), as offline: the field works without them.
  vm.runInContext((await bundleHostedFieldScripts()).frame, context);
  const send = (data: unknown, origin: string, source: unknown = parent): void => {
    window.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
  };
  return {
    input,
    toParent,
    send,
    close: () => {
      for (const channel of channels) channel.close();
    },
  };
}

describe('frame script bundle', () => {
  it('announces ready to the declared parent origin only and obeys only that parent', async () => {
    const frame = await loadFrame({ field: 'cvv', channel: 'c1', parentOrigin: PARENT_ORIGIN });
    try {
      expect(frame.toParent).toEqual([[{ source: MESSAGE_SOURCE, channel: 'c1', type: 'ready', field: 'cvv' }, PARENT_ORIGIN]]);
      expect(frame.input.attributes.get('autocomplete')).toBe('cc-csc');
      const configure = {
        source: MESSAGE_SOURCE,
        channel: 'c1',
        type: 'configure',
        label: 'CVV',
        required: true,
        invalid: false,
      };
      frame.send({ ...configure, label: 'from elsewhere' }, 'https://evil.example');
      frame.send({ ...configure, label: 'from a sibling window' }, PARENT_ORIGIN, {});
      expect(frame.input.attributes.get('aria-label')).toBeUndefined();
      frame.send(configure, PARENT_ORIGIN);
      expect(frame.input.attributes.get('aria-label')).toBe('CVV');
    } finally {
      frame.close();
    }
  });

  it('stays inert with a malformed fragment, no channel or a wildcard parent origin', async () => {
    for (const fragment of [
      { field: 'pin', channel: 'c', parentOrigin: PARENT_ORIGIN },
      // No channel: no checkout instance to speak for (a page that loads the frame only to have it cached).
      { field: 'number', channel: '', parentOrigin: PARENT_ORIGIN },
      { field: 'number', channel: 'c', parentOrigin: '*' },
    ]) {
      const frame = await loadFrame(fragment);
      expect(frame.toParent).toEqual([]);
      frame.close();
    }
  });
});
