// Runs the bot-check stand-in alone (the e2e tests start it as a process, as they start Kassa) and prints its URL:
// `KASSA_BOTCHECK_STANDIN {"url", "providers": {provider: {scriptUrl, verifyUrl}}, "keys"}`. Test infrastructure only.
import { STANDIN_KEYS, standinUrls, startBotcheckStandin } from './standin.ts';

const standin = await startBotcheckStandin();
const providers = Object.fromEntries(
  (['recaptcha-v2', 'recaptcha-v3', 'hcaptcha', 'turnstile'] as const).map((p) => [p, standinUrls(standin.url, p)]),
);
console.log(`KASSA_BOTCHECK_STANDIN ${JSON.stringify({ url: standin.url, providers, keys: STANDIN_KEYS })}`);
process.on('SIGTERM', () => void standin.close().then(() => process.exit(0)));
