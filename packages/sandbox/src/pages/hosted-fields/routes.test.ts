import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../index.ts';
import type { Sandbox } from '../../index.ts';
import { bundleHostedFieldScripts } from './bundle.ts';
import { FRAME_CSP } from '../page-security.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

/** Budget for the frame script, gzip: the checkout loads one frame per card field. */
const FRAME_SCRIPT_GZIP_BUDGET = 10 * 1024;

describe('hosted field frame', () => {
  it('serves the page under a strict CSP, with nothing inline', async () => {
    const response = await fetch(`${sandbox.origin}/hosted-fields/frame.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      'frame-ancestors *',
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe');
    expect(response.headers.get('x-frame-options')).toBeNull();
    const html = await response.text();
    expect(html).toMatch(/<script src="frame\.js\?v=[\w-]{16}" defer><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="frame\.css\?v=[\w-]{16}">/);
    expect(html.match(/<script[^>]*>[^<]+<\/script>/)).toBeNull();
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    expect(html.match(/<input\b/g)).toHaveLength(1);
  });

  it("caches the script and the stylesheet the page names for good and the page for minutes, so a checkout's five frames fetch each once", async () => {
    const page = await fetch(`${sandbox.origin}/hosted-fields/frame.html`);
    expect(page.headers.get('cache-control')).toBe('public, max-age=300');
    const html = await page.text();
    for (const [name, type] of [
      ['frame.js', /^text\/javascript/],
      ['frame.css', /^text\/css/],
    ] as const) {
      const named = new RegExp(`"(${name.replace('.', '\\.')}\\?v=[\\w-]+)"`).exec(html)?.[1];
      expect(named).toBeDefined();
      const current = await fetch(`${sandbox.origin}/hosted-fields/${named}`);
      expect(current.headers.get('content-type')).toMatch(type);
      expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // Another version's name (a page cached before a restart) gets today's file, never cached under that name.
      const other = await fetch(`${sandbox.origin}/hosted-fields/${name}?v=another`);
      expect(other.headers.get('cache-control')).toBe('no-cache');
      expect(await other.text()).toBe(await current.text());
    }
  });

  it('serves the bundled script and the stylesheet', async () => {
    const script = await fetch(`${sandbox.origin}/hosted-fields/frame.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-security-policy')).toBe(FRAME_CSP);
    expect(await script.text()).toBe((await bundleHostedFieldScripts()).frame);
    const css = await fetch(`${sandbox.origin}/hosted-fields/frame.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('background: transparent');
  });

  it('keeps the frame script an iife under its gzip budget, without logging', async () => {
    const code = (await bundleHostedFieldScripts()).frame;
    const gzipped = gzipSync(code, { level: 9 }).length;
    process.stdout.write(`hosted field frame script: ${code.length} B minified, ${gzipped} B gzip\n`);
    expect(gzipped).toBeLessThan(FRAME_SCRIPT_GZIP_BUDGET);
    expect(code).toMatch(/^("use strict";)?\(\(\)=>\{/);
    expect(code).not.toMatch(/console\./);
  });

  it("serves the card rules and the number frame's tokenization, ES modules the frame script names by their versions, cached for good", async () => {
    const frameScript = await (await fetch(`${sandbox.origin}/hosted-fields/frame.js`)).text();
    // The brands' table is the card rules' alone: neither the frame script nor the tokenization holds a copy.
    expect(frameScript).not.toContain('Mastercard');
    const { validate, tokenize } = await bundleHostedFieldScripts();
    for (const [file, bundled, exported] of [
      ['validate', validate, 'startField'],
      ['tokenize', tokenize, 'tokenize'],
    ] as const) {
      const named = new RegExp(`"(${file}\\.js\\?v=[\\w-]{16})"`).exec(frameScript)?.[1];
      expect(named).toBeDefined();
      const module = await fetch(`${sandbox.origin}/hosted-fields/${named}`);
      expect(module.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(module.headers.get('content-security-policy')).toBe(FRAME_CSP);
      expect(module.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const code = await module.text();
      expect(code).toBe(bundled);
      expect(code).toMatch(new RegExp(`\\b${exported}\\b`));
      expect(code.includes('Mastercard')).toBe(file === 'validate');
    }
  });
});
