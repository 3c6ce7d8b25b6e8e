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

/**
 * Validates each part of a request with the route's zod schema and refuses it with a 400 `validation_failed` that
 * names each bad field (the contract's shape). Fastify hands the error to the error mapping as it is.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = HTTP_PARTS.find((p) => p === httpPart) ?? 'body';
  return (data: unknown) => {
    // A bodyless request is an empty object, so each missing field is named rather than the whole body.
    const result = schema.safeParse(part === 'body' && data === null ? {} : data);
    return result.success ? { value: result.data } : { error: validationFailed(fieldErrors(result.error, part)) };
  };
};
