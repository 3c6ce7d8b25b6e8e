import { join } from 'node:path';
import { build } from 'vite';

/** Builds the web app (with the checkout compiled in) and returns the folder the server serves. */
export async function buildWebApp(root: string): Promise<string> {
  const webRoot = join(root, 'packages', 'web');
  const outDir = join(webRoot, 'dist');
  await build({ root: webRoot, configFile: join(webRoot, 'vite.config.ts'), logLevel: 'warn', build: { outDir } });
  return outDir;
}
