import swagger from '@fastify/swagger';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  ResponseSerializationError,
} from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRegistry } from '../http/api-schemas.ts';
import { zodValidatorCompiler } from '../http/parse.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Routes are declared with zod schemas: they validate requests (naming each bad field), serialize responses (only what
 * the schema declares leaves), and make the OpenAPI document served at `/api/openapi.json`. Register before routes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(answerSerializer);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kassa API',
        version: '0.1.0',
        description: 'The HTTP API of the Kassa server (docs/contracts.md section 2).',
      },
    },
    transform: createJsonSchemaTransform({ schemaRegistry: apiRegistry }),
    transformObject: (document) => withoutUnusedComponents(toComponents(document)),
  });
}

/**
 * An answer is checked against its schema and leaves as JSON of what the schema declares (zod's output drops undeclared
 * members; one that breaks the schema is a ResponseSerializationError, a 500). fastify-type-provider-zod's serializer
 * encodes (zod's backward direction): every value with checks is parsed twice (a pass without its checks, then one with
 * them) and zod's compiled fast path is skipped, 22-28 µs for a payment's 201 in a loop against 6-10 parsed forward by
 * the schema compiled once (issue 10, cpu9). Forward and backward give the same value for a schema that converts
 * nothing, so answers are parsed forward; a schema that would convert on the way out is refused when its route is made.
 */
export const answerSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  const compiled = compiledAnswer(schema);
  if (typeof compiled === 'string')
    throw new Error(
      `${method} ${url}: an answer's schema may not convert values (it has a ${compiled}): it is parsed, not encoded`,
    );
  return (data) => {
    const result = compiled.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/**
 * Each answer's schema compiled once per process (zod's compile writes and evaluates a parser's code: about half of an
 * app's build, 0.1-0.2 s of CPU, which the tests paid for each of their 500-odd apps), or the kind of its first part
 * that converts values. The schemas are the routes' module constants, so every app built by the process shares them.
 */
const compiledAnswers = new WeakMap<z.ZodType, z.ZodType | string>();

function compiledAnswer(schema: z.ZodType): z.ZodType | string {
  let compiled = compiledAnswers.get(schema);
  if (compiled === undefined) {
    compiled = convertingPart(schema) ?? z.compile(schema);
    compiledAnswers.set(schema, compiled);
  }
  return compiled;
}

/** The kind of the first part of `schema` whose encoding differs from its forward parse (a transform, a default...). */
function convertingPart(schema: z.core.$ZodType, seen = new Set<z.core.$ZodType>()): string | null {
  if (seen.has(schema)) return null;
  seen.add(schema);
  const def = (schema as z.core.$ZodTypes)._zod.def;
  const parts: z.core.$ZodType[] = [];
  switch (def.type) {
    case 'transform':
    case 'pipe':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'success':
      return def.type;
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
      parts.push(def.innerType);
      break;
    case 'array':
      parts.push(def.element);
      break;
    case 'object':
      parts.push(...Object.values(def.shape), ...(def.catchall === undefined ? [] : [def.catchall]));
      break;
    case 'union':
      parts.push(...def.options);
      break;
    case 'intersection':
      parts.push(def.left, def.right);
      break;
    case 'record':
      parts.push(def.keyType, def.valueType);
      break;
    case 'tuple':
      parts.push(...def.items, ...(def.rest === null ? [] : [def.rest]));
      break;
    case 'lazy':
      parts.push(def.getter());
      break;
  }
  for (const part of parts) {
    const found = convertingPart(part, seen);
    if (found !== null) return found;
  }
  return null;
}

const toComponents = createJsonSchemaTransformObject({ schemaRegistry: apiRegistry });
type OpenApiDocument = ReturnType<typeof toComponents>;

/**
 * Keeps the components the routes reach. The transform writes each named shape twice, as request input (`MoneyInput`)
 * and as response output (`Money`); a shape only ever sent, or only ever received, would be listed twice.
 */
function withoutUnusedComponents(document: OpenApiDocument): OpenApiDocument {
  if (!('components' in document) || document.components === undefined) return document;
  const schemas = document.components.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '') : undefined;
      if (name !== undefined && !used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
      visit(value);
    }
  };
  visit(document.paths);
  // The document is the transform's own fresh copy: trimmed in place.
  document.components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return document;
}

export function openApiRoutes(app: FastifyInstance): void {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

/** The app as routes see it: request parts and replies typed from their zod schemas. */
export type ApiInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
