import type { z } from 'zod';
import { ProblemError } from './problem.ts';
import type { FieldError } from './problem.ts';

/** Zod issues -> field errors naming the field by its path (`items.0.quantity`). */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const field = [prefix, path].filter((p) => p !== undefined && p !== '').join('.') || (prefix ?? 'body');
    return { field, code: issue.code, message: issue.message };
  });
}

export function validationFailed(errors: FieldError[]): ProblemError {
  return new ProblemError('validation_failed', { detail: `Invalid: ${errors.map((e) => e.field).join(', ')}`, errors });
}

/** Parse untrusted input or throw a 400 `validation_failed` that names each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw validationFailed(fieldErrors(result.error, prefix));
  }
  return result.data;
}
