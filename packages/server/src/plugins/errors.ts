import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from '../http/problem.ts';
import type { ProblemBody, ProblemCode } from '../http/problem.ts';

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  return reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** Fastify's own client errors -> our stable codes. */
const FASTIFY_CODES: Record<string, ProblemCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
};

/**
 * Errors Fastify's router answers before any hook runs (an over-long path parameter, a malformed percent-encoding):
 * as problem documents too (issue 10's fuzz found them as plain JSON). Passed as the app's `frameworkErrors`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendProblem(reply, problemOf(error, request));
}

/** Malformed JSON is a validation failure of the whole body (the contract's 400 `validation_failed`). */
function invalidJson(): ProblemError {
  return new ProblemError('validation_failed', {
    detail: 'The request body is not valid JSON.',
    errors: [{ field: 'body', code: 'invalid_json', message: 'The request body is not valid JSON.' }],
  });
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error;
}

/** Any error -> the problem it answers with; anything unexpected is logged and says nothing of the internals. */
export function problemOf(error: unknown, request: FastifyRequest): ProblemBody {
  if (error instanceof ProblemError) return error.toBody();
  if (error instanceof Error && 'problem' in error) return error.problem as ProblemBody;
  if (isFastifyError(error)) {
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
      return invalidJson().toBody();
    const mapped = FASTIFY_CODES[error.code];
    if (mapped !== undefined) return problemBody(mapped);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return problemBody(status === 404 ? 'not_found' : 'validation_failed', { detail: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return problemBody('internal_error');
}

/**
 * Every error leaves as application/problem+json with a stable code. Client mistakes are 4xx naming the
 * problem; anything unexpected is a 500 that says nothing of the internals (the log has the details).
 */
export function registerErrorMapping(app: FastifyInstance): void {
  // JSON bodies: an empty body is "no body" (bodyless POST/DELETE still send the CSRF content type);
  // a malformed one is a 400, never a 500.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(invalidJson(), undefined);
    }
  });

  app.setErrorHandler((error, request, reply) => sendProblem(reply, problemOf(error, request)));
}
