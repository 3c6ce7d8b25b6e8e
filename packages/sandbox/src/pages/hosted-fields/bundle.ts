import { createHash } from 'node:crypto';
import { bundleScript } from '../bundle-script.ts';

/** A file's version, named in its URL (`?v=`): its content's hash, so a cached copy is never stale. */
export const versionOf = (content: string): string => createHash('sha256').update(content).digest('base64url').slice(0, 16);

/** The number frame's tokenization (tokenize.ts bundled, an ES module), as browsers receive it. */
export function bundleTokenizeScript(): Promise<string> {
  return bundleScript(new URL('./tokenize.ts', import.meta.url), { format: 'esm' });
}

/** The hosted field frame script (frame.ts bundled), as browsers receive it; it names the tokenization's version. */
export async function bundleFrameScript(): Promise<string> {
  const tokenizer = `tokenize.js?v=${versionOf(await bundleTokenizeScript())}`;
  return bundleScript(new URL('./frame.ts', import.meta.url), { define: { TOKENIZE_SCRIPT: JSON.stringify(tokenizer) } });
}
