import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';
import { registerErrorMapping } from './errors.ts';
import { registerOpenApi } from './openapi.ts';

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

describe("the answers' serializer", () => {
  const answer = z.object({
    id: z.string(),
    amount: z.object({ amount: z.number().int(), currency: z.string().length(3) }),
    lines: z.array(z.object({ name: z.string(), note: z.string().optional() })),
  });

  /** An app whose one route answers `sent` under `schema`. */
  async function answering(schema: z.ZodType, sent: unknown): Promise<FastifyInstance> {
    const app = Fastify();
    registerErrorMapping(app);
    await registerOpenApi(app);
    app.withTypeProvider<ZodTypeProvider>().get('/thing', { schema: { response: { 200: schema } } }, async () => sent as never);
    await app.ready();
    return app;
  }

  it('sends what the schema declares, leaving out any other member at every depth', async () => {
    const app = await answering(answer, {
      id: 't1',
      secret: 'internal',
      amount: { amount: 1200, currency: 'EUR', cents: true },
      lines: [{ name: 'Mug', cost: 3 }],
    });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":"t1","amount":{"amount":1200,"currency":"EUR"},"lines":[{"name":"Mug"}]}');
    await app.close();
  });

  it("answers a 500 that says nothing of the answer when it breaks the schema (a check's, not only a type's)", async () => {
    for (const sent of [
      { id: 't1', amount: { amount: 12.5, currency: 'EUR' }, lines: [] },
      { id: 't1', amount: { amount: 1200, currency: 'EURO' }, lines: [] },
      { id: 't1', amount: { amount: 1200, currency: 'EUR' } },
    ]) {
      const app = await answering(answer, sent);
      const response = await app.inject({ method: 'GET', url: '/thing' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ code: 'internal_error' });
      expect(response.body).not.toContain('EUR');
      await app.close();
    }
  });

  it('refuses, when the route is made, an answer schema that would convert a value on its way out', async () => {
    for (const [kind, schema] of [
      ['pipe', z.object({ lines: z.array(z.object({ at: z.date().transform((d) => d.toISOString()) })) })],
      [
        'transform',
        z.record(
          z.string(),
          z.transform((v) => String(v)),
        ),
      ],
      ['default', z.object({ note: z.string().default('none') })],
      ['catch', z.object({ status: z.enum(['a', 'b']).catch('a').optional() })],
      ['pipe', z.union([z.string(), z.codec(z.number(), z.string(), { decode: String, encode: Number })])],
      ['default', z.tuple([z.string(), z.number().default(0)])],
      ['catch', z.intersection(z.object({ id: z.string() }), z.object({ note: z.string().catch('') }))],
      ['prefault', z.object({ parent: z.lazy(() => z.object({ note: z.string().prefault('') })) })],
    ] as const) {
      // Twice: the second app's route reads the schema's check made for the first (a schema is checked once a process).
      for (const _app of [1, 2])
        await expect(answering(schema, {})).rejects.toThrow(
          `GET /thing: an answer's schema may not convert values (it has a ${kind})`,
        );
    }
  });
});
