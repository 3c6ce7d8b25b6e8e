import { hash, verify } from '@node-rs/argon2';

/** Argon2id's cost for new password hashes: memory in KiB and passes (one lane). */
export interface PasswordCost {
  memoryKiB: number;
  passes: number;
}

/**
 * OWASP's minimum for Argon2id (19 MiB, 2 passes; also the library's defaults): the default, and the floor of the
 * configuration (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES). Only tests lower it, in code (testing/config.ts).
 */
export const MIN_PASSWORD_COST: PasswordCost = { memoryKiB: 19_456, passes: 2 };

export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  return hash(password, { memoryCost: cost.memoryKiB, timeCost: cost.passes, parallelism: 1 });
}

/** Whether a stored hash was made otherwise than `hashPassword` makes one at this cost (another cost, or algorithm). */
export function madeAtOtherCost(passwordHash: string, cost: PasswordCost): boolean {
  return !passwordHash.startsWith(`$argon2id$v=19$m=${cost.memoryKiB},t=${cost.passes},p=1$`);
}

/** Hashes of passwords that never change (the decoy below, the demo accounts'), by cost and password. */
const keptHashes = new Map<string, Promise<string>>();

/**
 * The hash of a password that never changes, made once per process and cost, then kept. A failed hash is not kept:
 * the next call tries again rather than failing every call after it.
 */
export function keptHash(password: string, cost: PasswordCost): Promise<string> {
  const key = `${cost.memoryKiB}/${cost.passes}/${password}`;
  let hashed = keptHashes.get(key);
  if (hashed === undefined) {
    hashed = hashPassword(password, cost);
    keptHashes.set(key, hashed);
    hashed.catch(() => keptHashes.delete(key));
  }
  return hashed;
}

/**
 * Whether the password is the one hashed: Argon2 reads the cost from the stored hash, so hashes made at any cost
 * still verify after the setting changes. `cost` is the decoy's, for an unknown email (`passwordHash` null).
 */
export async function verifyPassword(passwordHash: string | null, password: string, cost: PasswordCost): Promise<boolean> {
  if (passwordHash === null) {
    // Compared against, so a wrong email costs as long as a wrong password (of an account hashed at the same cost).
    await verify(await keptHash('decoy-password-never-matches', cost), password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
