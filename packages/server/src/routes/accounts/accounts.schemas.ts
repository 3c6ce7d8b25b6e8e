import { z } from 'zod';
import { accountSchema } from '../../accounts/account.ts';

export const emailSchema = z.string().trim().max(254, 'Use at most 254 characters.').pipe(z.email('Enter a valid email address.'));

export const signUpBody = z.object({
  email: emailSchema,
  // 8+ characters (NIST SP 800-63B); an upper bound keeps hashing cheap to refuse.
  password: z.string().min(8, 'Use at least 8 characters.').max(256, 'Use at most 256 characters.'),
  name: z.string().trim().min(1, 'Enter your name.').max(200, 'Use at most 200 characters.'),
});

export const signInBody = z.object({
  email: z.string().trim().min(1, 'Enter your email address.').max(254),
  password: z.string().min(1, 'Enter your password.').max(256),
});

export const accountResponse = z.object({ account: accountSchema });
