import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoadFailed } from './load-failed.tsx';

const shown = (status: number, code: string): string =>
  renderToStaticMarkup(<LoadFailed problem={{ status, code }} retry={() => {}} />);

describe("a page's data that did not come", () => {
  it('offers Try again when another try may answer: no answer (a network error, a deadline), 429, or a 5xx', () => {
    for (const [status, code] of [
      [0, 'network_error'],
      [429, 'rate_limited'],
      [500, 'unexpected_error'],
      [502, 'gateway_unavailable'],
      [503, 'unexpected_error'],
    ] as const)
      expect(shown(status, code), `${status}`).toContain('>Try again</button>');
  });

  it('says a final answer (a 4xx but 429) with no Try again', () => {
    for (const [status, code] of [
      [400, 'validation_failed'],
      [401, 'unauthenticated'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [409, 'conflict'],
    ] as const) {
      const html = shown(status, code);
      expect(html, `${status}`).toMatch(/^<div class="load-failed"><p role="alert">[^<]+<\/p><\/div>$/);
    }
  });
});
