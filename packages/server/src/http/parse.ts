import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ProblemError } from './problem.ts';
import type { FieldError } from './problem.ts';

/** Header names as HTTP writes them (`Idempotency-Key`): Node hands them over lower-cased. */
function headerName(lowerCased: string): string {
  return lowerCased.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** Zod issues -> field errors naming the field by its path (`items.0.quantity`), or the header by its name. */
export function fieldErrors(error: z.ZodError, part: 'body' | 'params' | 'querystring' | 'headers' = 'body'): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    const field = part === 'headers' && path[0] !== undefined ? headerName(path[0]) : path.join('.') || part;
    return { field, code: issue.code, message: issue.message };
  });
}

export function validationFailed(errors: FieldError[]): ProblemError {
  return new ProblemError('validation_failed', { detail: `Invalid: ${errors.map((e) => e.field).join(', ')}`, errors });
}

const HTTP_PARTS = ['body', 'params', 'querystring', 'headers'] as const;

/** A NUL character, or a surrogate that is not half of a pair. */
const UNSTORABLE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_CHARACTERS = new RegExp(UNSTORABLE_TEXT.source, 'g');

/**
 * `text` with each character no database stores (see unstorableTextPath) replaced by U+FFFD: for what is recorded of a request that
 * validation refused (the admin audit log keeps the id an admin tried; PostgreSQL refused a NUL in it, issue 10's fuzz).
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_CHARACTERS, '\uFFFD');
}

/**
 * Where `value` holds text that no database stores as it is (issue 10): a NUL character, which PostgreSQL refuses in
 * text, or a lone surrogate, which is no Unicode at all (PostgreSQL refuses it as UTF-8; SQLite would store a
 * replacement character). The path of the first such string or key, or null.
 */
export function unstorableTextPath(value: unknown): string[] | null {
  // Run on every request's headers and body, member by member: no closure made at each call (issue 10, cpu8), and no
  // path made but the one found (issue 10, cpu15).
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? [] : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const key of Object.keys(value)) {
    if (UNSTORABLE_TEXT.test(key)) return [key];
    const found = unstorableTextPath((value as Record<string, unknown>)[key]);
    if (found !== null) {
      found.unshift(key);
      return found;
    }
  }
  return null;
}

/**
 * Validates each part of a request with the route's zod schema and refuses it with a 400 `validation_failed` that
 * names each bad field (the contract's shape). Fastify hands the error to the error mapping as it is.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = HTTP_PARTS.find((p) => p === httpPart) ?? 'body';
  return (data: unknown) => {
    const unstorable = unstorableTextPath(data);
    if (unstorable !== null) {
      const field = part === 'headers' && unstorable[0] !== undefined ? headerName(unstorable[0]) : unstorable.join('.') || part;
      return {
        error: validationFailed([
          { field, code: 'invalid_string', message: 'Text may not hold a NUL character or an unpaired surrogate.' },
        ]),
      };
    }
    // A bodyless request is an empty object, so each missing field is named rather than the whole body.
    const result = schema.safeParse(part === 'body' && data === null ? {} : data);
    return result.success ? { value: result.data } : { error: validationFailed(fieldErrors(result.error, part)) };
  };
};
