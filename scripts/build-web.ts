import { join } from 'node:path';

/** Where the built web app lands: the folder the server serves. */
export function webDist(root: string): string {
  return join(root, 'packages', 'web', 'dist');
}

/** Builds the web app, with the checkout compiled in. */
export async function buildWebApp(root: string): Promise<void> {
  // Loaded here: a Kassa serving an app already built (every e2e Kassa after the first) starts without loading Vite.
  const { build } = await import('vite');
  const webRoot = join(root, 'packages', 'web');
  await build({ root: webRoot, configFile: join(webRoot, 'vite.config.ts'), logLevel: 'warn', build: { outDir: webDist(root) } });
}
