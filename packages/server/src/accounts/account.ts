import { z } from 'zod';
import type { AccountRow } from '../db/schema.ts';

export const ROLES = ['shopper', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const accountSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(ROLES) });
export type Account = z.infer<typeof accountSchema>;

export function toAccount(row: AccountRow): Account {
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

/** Emails compare case-insensitively: stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
