import { createHash } from 'node:crypto';
import { bundleScript } from '../bundle-script.ts';

/** A file's version, named in its URL (`?v=`): its content's hash, so a cached copy is never stale. */
export const versionOf = (content: string): string => createHash('sha256').update(content).digest('base64url').slice(0, 16);

/** The number frame's tokenization (tokenize.ts bundled, an ES module), as browsers receive it. */
export function bundleTokenizeScript(): Promise<string> {
  return bundleScript(new URL('./tokenize.ts', import.meta.url), { format: 'esm' });
}

/** The card rules every frame imports as it announces itself ready (validate.ts bundled, an ES module). */
export function bundleValidateScript(): Promise<string> {
  return bundleScript(new URL('./validate.ts', import.meta.url), { format: 'esm' });
}

/** The hosted field frame script (frame.ts bundled), as browsers receive it; it names its modules' versions. */
export async function bundleFrameScript(): Promise<string> {
  const tokenizer = `tokenize.js?v=${versionOf(await bundleTokenizeScript())}`;
  const validator = `validate.js?v=${versionOf(await bundleValidateScript())}`;
  return bundleScript(new URL('./frame.ts', import.meta.url), {
    define: { TOKENIZE_SCRIPT: JSON.stringify(tokenizer), VALIDATE_SCRIPT: JSON.stringify(validator) },
  });
}
