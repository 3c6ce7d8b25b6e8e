import { bundleScript } from '../bundle-script.ts';

/** The hosted field frame script (frame.ts bundled), as browsers receive it. */
export function bundleFrameScript(): Promise<string> {
  return bundleScript(new URL('./frame.ts', import.meta.url));
}
