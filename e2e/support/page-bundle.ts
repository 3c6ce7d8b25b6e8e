import { basename } from 'node:path';
import type { Page } from '@playwright/test';
import { build, type BuildOptions } from 'esbuild';

// A test page's script bundled from the workspace's source with esbuild, in memory, and served by Playwright on the
// shop's origin (the integrator's page, braintree-web's page): what the two pages' bundles share.

/** The page's files (its entry, on-demand chunks, CSS) by name; bundled once per worker, at the first call. */
export function pageBundle(
  options: Pick<BuildOptions, 'entryPoints' | 'stdin' | 'entryNames' | 'jsx' | 'outdir'>,
): () => Promise<ReadonlyMap<string, Uint8Array>> {
  let bundled: Promise<ReadonlyMap<string, Uint8Array>> | null = null;
  return () => {
    bundled ??= build({
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      // The workspace's source, as the web app's build reads it (package.json "exports").
      conditions: ['@kassa/source'],
      define: { 'process.env.NODE_ENV': '"production"' },
      write: false,
      logLevel: 'silent',
      ...options,
    }).then((result) => new Map(result.outputFiles.map((file) => [basename(file.path), file.contents])));
    return bundled;
  };
}

/** The page's files (by name) that do not arrive: answered 503, as by a failing CDN, or never answered. */
export interface FileFaults {
  readonly failing?: RegExp;
  /** Held unanswered, never failed, as by a network or a proxy that stalls. */
  readonly stalling?: RegExp;
}

/** Serves the files at `path` on the page's origin, but for the `faults`. */
export async function servePageBundle(
  page: Page,
  path: string,
  files: ReadonlyMap<string, Uint8Array>,
  faults: FileFaults = {},
): Promise<void> {
  await page.route(`**${path}*`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(path.length);
    if (faults.stalling?.test(name)) return;
    if (faults.failing?.test(name)) return route.fulfill({ status: 503 });
    const contents = files.get(name);
    if (contents === undefined) return route.fulfill({ status: 404 });
    const contentType = name.endsWith('.css') ? 'text/css' : 'text/javascript';
    return route.fulfill({ contentType, body: Buffer.from(contents) });
  });
}
