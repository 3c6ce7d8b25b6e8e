import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';

interface Document {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: unknown; responses: Record<string, { description: string; content: Record<string, { schema: unknown }> }> }
    >
  >;
  components: { schemas: Record<string, unknown> };
}

/** Every `$ref` in a part of the document. */
function refs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refs);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refs(value)));
}

describe('the OpenAPI document', () => {
  const engine = sqliteEngine();
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let document: Document;

  beforeAll(async () => {
    const opened = await engine.open();
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
  });
  afterAll(() => cleanup());

  it("is served as OpenAPI 3.1 from the routes' own zod schemas", () => {
    expect(document.openapi).toBe('3.1.0');
    const createOrder = document.paths['/api/orders']?.post;
    expect(createOrder?.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: { properties: { items: { type: 'array', minItems: 1, maxItems: 50 } }, required: ['items'] },
        },
      },
    });
    expect(createOrder?.responses['201']?.content['application/json']?.schema).toMatchObject({
      properties: { order: { $ref: '#/components/schemas/Order' } },
    });
  });

  it("lists each route's problems by status, with their codes, as application/problem+json", () => {
    const checkout = document.paths['/api/orders/{id}/checkout-session']?.post;
    expect(checkout?.responses['404']?.description).toContain('`order_not_found`');
    expect(checkout?.responses['503']?.description).toContain('`gateway_not_configured`');
    expect(checkout?.responses['409']?.content['application/problem+json']?.schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
  });

  it('names each shared shape once, and every name it lists is used and defined', () => {
    const used = new Set(refs(document.paths).concat(refs(document.components)));
    const defined = Object.keys(document.components.schemas).map((name) => `#/components/schemas/${name}`);
    expect(defined.sort()).toEqual([...used].sort());
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Order', 'Payment', 'Money', 'Problem']));
  });
});
