import { createHash } from 'node:crypto';
import { bundleScript } from '../bundle-script.ts';

/** A file's version, named in its URL (`?v=`): its content's hash, so a cached copy is never stale. */
export const versionOf = (content: string): string => createHash('sha256').update(content).digest('base64url').slice(0, 16);

/** The hosted field frame's scripts, as browsers receive them, each bundled once. */
export interface HostedFieldScripts {
  /** frame.ts bundled: the frame script, which names its modules' versions. */
  readonly frame: string;
  /** field-steps.ts bundled with the card rules (validate.ts), an ES module every frame imports as it announces itself ready. */
  readonly validate: string;
  /** tokenize.ts bundled, an ES module: the number frame's tokenization, imported once the shopper types. */
  readonly tokenize: string;
}

/** Bundles the frame script and its two modules, each once (the frame script names their versions). */
export async function bundleHostedFieldScripts(): Promise<HostedFieldScripts> {
  const esModule = (file: string) => bundleScript(new URL(file, import.meta.url), { format: 'esm' });
  const [validate, tokenize] = await Promise.all([esModule('./field-steps.ts'), esModule('./tokenize.ts')]);
  const frame = await bundleScript(new URL('./frame.ts', import.meta.url), {
    define: {
      TOKENIZE_SCRIPT: JSON.stringify(`tokenize.js?v=${versionOf(tokenize)}`),
      VALIDATE_SCRIPT: JSON.stringify(`validate.js?v=${versionOf(validate)}`),
    },
  });
  return { frame, validate, tokenize };
}
