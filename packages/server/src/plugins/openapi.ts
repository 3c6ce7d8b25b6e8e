import swagger from '@fastify/swagger';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject, serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRegistry } from '../http/api-schemas.ts';
import { zodValidatorCompiler } from '../http/parse.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Routes are declared with zod schemas: they validate requests (naming each bad field), serialize responses (only what
 * the schema declares leaves), and make the OpenAPI document served at `/api/openapi.json`. Register before routes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
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
