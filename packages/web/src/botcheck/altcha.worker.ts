// The proof of work's solver, off the main thread: altcha-lib's worker protocol (work / abort messages) with the
// browser's SHA-256 (Web Crypto). Built by Vite as its own file on the shop's origin, so the strict CSP's
// `worker-src 'self'` allows it.
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { handler } from 'altcha-lib/workers/shared';

handler({ deriveKey });
