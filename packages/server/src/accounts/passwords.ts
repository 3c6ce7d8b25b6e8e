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

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password (of an account
// hashed at the same cost); one per cost.
const decoys = new Map<string, Promise<string>>();

/**
 * Whether the password is the one hashed: Argon2 reads the cost from the stored hash, so hashes made at any cost
 * still verify after the setting changes. `cost` is the decoy's, for an unknown email (`passwordHash` null).
 */
export async function verifyPassword(passwordHash: string | null, password: string, cost: PasswordCost): Promise<boolean> {
  if (passwordHash === null) {
    const key = `${cost.memoryKiB}/${cost.passes}`;
    let decoy = decoys.get(key);
    if (decoy === undefined) {
      decoy = hashPassword('decoy-password-never-matches', cost);
      decoys.set(key, decoy);
      // A failed hash is not kept: the next unknown email tries again rather than failing every sign-in after it.
      decoy.catch(() => decoys.delete(key));
    }
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
