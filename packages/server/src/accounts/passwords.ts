import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum recommendation). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    decoy ??= hash('decoy-password-never-matches');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
