import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Checkout } from './index.ts';

describe('<Checkout> on the server', () => {
  it('renders the loading state without touching window or document', () => {
    expect(typeof globalThis.window).toBe('undefined');
    expect(typeof globalThis.document).toBe('undefined');
    const html = renderToString(
      <Checkout authorization="not-even-a-token" options={{ cardholderName: 'required', locale: 'en' }} />,
    );
    expect(html).toContain('data-kassa-checkout=""');
    expect(html).toContain('data-state="loading"');
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading the payment form');
    expect(html).toContain('role="alert"');
    // Strict CSP: no style attribute, no injected stylesheet.
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toContain('<style');
    expect(html).not.toContain('<iframe');
  });
});
