import { existsSync } from 'node:fs';

// Debian's Chromium when the machine has it, otherwise the one shipped inside an npm package (no download needed).
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export async function chromiumExecutable(): Promise<string> {
  const fromEnv = process.env.KASSA_CHROMIUM;
  if (fromEnv) return fromEnv;
  const system = systemChromium.find((path) => existsSync(path));
  if (system) return system;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

// Our own flags only: the packaged browser's defaults turn off web security, which would hide CSP and origin bugs.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
