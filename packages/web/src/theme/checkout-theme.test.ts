import { describe, expect, it } from 'vitest';
import { remountKeyAfter } from './checkout-theme.ts';

// The instance's answer is the checkout's own (its runtime's restyle(), tested in @kassa/checkout with the sandbox's
// fields and over braintree-web's): here only what the page does with it.
describe("the checkout's key after a change of theme", () => {
  it('stays where the card fields took the new colours where they are (the card typed and the view kept)', () => {
    let asked = 0;
    expect(remountKeyAfter('dark', { restyle: () => ++asked > 0 })).toBeNull();
    expect(asked).toBe(1);
  });

  it("is the new theme where they could not (braintree-web's, which takes them only as it makes its fields), or before the checkout is ready: the checkout is made again in it", () => {
    expect(remountKeyAfter('dark', { restyle: () => false })).toBe('dark');
    expect(remountKeyAfter('light', null)).toBe('light');
  });
});
