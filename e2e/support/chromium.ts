import { existsSync } from 'node:fs';

// The headless shell inside the @sparticuz/chromium npm package (no download needed): it draws no browser window
// behind the page, so a run costs about 45% less CPU than with Debian's full Chromium (measured on 25 specs: 72 s
// of Chromium's CPU against 132 s). Debian's Chromium is the fallback where the package cannot unpack.
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export async function chromiumExecutable(): Promise<string> {
  const fromEnv = process.env.KASSA_CHROMIUM;
  if (fromEnv) return fromEnv;
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    return await packaged.executablePath();
  } catch (error) {
    const system = systemChromium.find((path) => existsSync(path));
    if (system) return system;
    throw error;
  }
}

// Our own flags only: the packaged browser's defaults turn off web security, which would hide CSP and origin bugs.
// Site isolation on, as desktop Chrome: what the bench's checkout rows measure with (bench/src/checkout.ts).
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Playwright's launch options for the run's Chromium. `siteIsolation`: the card frames in processes of their own, as
 * desktop Chrome runs a gateway's frames, for the spec whose subject is typing and focus across them
 * (checkout-frame.spec.ts): its file gets a worker and browser of its own.
 */
export function chromiumLaunchOptions({ siteIsolation = false } = {}): { executablePath?: string; args: string[] } {
  return {
    executablePath: process.env.KASSA_CHROMIUM,
    // `--disable-site-isolation-trials`: the card fields' frames (the sandbox gateway's origin) share their page's
    // renderer process instead of each taking one of their own (on 127.0.0.1 the shop and the gateway are one site, but
    // the Origin-Agent-Cluster header that Helmet sends made each origin a process). A process boundary is no part of
    // what the specs prove (checkout-frame.spec, whose subject is typing and focus across the frames, keeps it all the
    // same): the same-origin policy, CSP, postMessage's origins, origin-keyed agent clusters and focus across frames
    // are the web platform's in either model (Chromium on Android keeps most sites' frames in one process too; checked
    // with two origins of 127.0.0.1 sending the header: the frame still reports originAgentCluster, is refused its
    // parent's document with a SecurityError and posts with its own origin), and web security stays on. Measured on 29
    // tests (pay-with-card, card-validation, checkout-frame, card-filled-at-once, security, navigation; --workers 1,
    // two runs each, alternating, load 15-17): 59 renderer processes instead of 85-86, Chromium's CPU 70-73 s instead
    // of 84-85, all the run's processes 122-129 s instead of 138-148. `--in-process-gpu` only moved the GPU process's
    // CPU into the browser process's.
    // `--js-flags=--max-opt=1`: V8 stops at Sparkplug, without Maglev, whose compiles took about 0.07 s of a card
    // payment's 1.7 s of renderer CPU for pages that live a few seconds (e2e README, "Where the run's CPU goes"). The
    // tests only, not the bench's `chromiumArgs`, whose timings are desktop Chrome's.
    args: [...(siteIsolation ? [] : ['--disable-site-isolation-trials']), '--js-flags=--max-opt=1', ...chromiumArgs],
  };
}
