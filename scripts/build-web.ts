import { join } from 'node:path';
import { build } from 'vite';

/** Where the built web app lands: the folder the server serves. */
export function webDist(root: string): string {
  return join(root, 'packages', 'web', 'dist');
}

/** Builds the web app, with the checkout compiled in. */
export async function buildWebApp(root: string): Promise<void> {
  const webRoot = join(root, 'packages', 'web');
  await build({ root: webRoot, configFile: join(webRoot, 'vite.config.ts'), logLevel: 'warn', build: { outDir: webDist(root) } });
}
