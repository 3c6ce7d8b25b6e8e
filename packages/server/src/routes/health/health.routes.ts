import { z } from 'zod';
import type { ApiInstance } from '../../plugins/openapi.ts';

export function healthRoutes(app: ApiInstance): void {
  app.get(
    '/api/health',
    { schema: { summary: 'The server answers', tags: ['meta'], response: { 200: z.object({ ok: z.literal(true) }) } } },
    async () => ({ ok: true as const }),
  );
}
