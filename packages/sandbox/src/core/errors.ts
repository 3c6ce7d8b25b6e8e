// Validation errors in the provider's shape: a code, the snake_case attribute it concerns, a message, and the
// nesting path (e.g. ['transaction'] or ['transaction', 'credit_card']) under which the wire protocol groups it.

export interface ValidationError {
  path: readonly string[];
  attribute: string;
  code: string;
  message: string;
}

export function validationError(path: readonly string[], attribute: string, code: string, message: string): ValidationError {
  return { path, attribute, code, message };
}

/** Outcome of an operation that can fail validation (nothing changed) or succeed. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[]; message: string };

export function invalid<T>(errors: ValidationError[]): Outcome<T> {
  return { ok: false, errors, message: errors.map((error) => error.message).join('\n') };
}
