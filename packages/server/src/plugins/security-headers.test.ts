import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './security-headers.ts';

describe('contentSecurityPolicy', () => {
  it("allows a third-party bot-check's origin for its script, frames, styles and calls, and nothing inline", () => {
    const policy = contentSecurityPolicy(['http://127.0.0.1:8090'], ['https://challenges.cloudflare.com']);
    expect(policy['script-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['frame-src']).toEqual(['http://127.0.0.1:8090', 'https://challenges.cloudflare.com']);
    expect(policy['style-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'http://127.0.0.1:8090', 'https://challenges.cloudflare.com']);
    expect(JSON.stringify(policy)).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('with ALTCHA and no gateway: scripts from the shop only, no frames at all', () => {
    const policy = contentSecurityPolicy([]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
  });
});
