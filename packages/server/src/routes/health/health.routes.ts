import { z } from 'zod';
import type { ApiInstance } from '../../plugins/openapi.ts';

const healthAnswer = z.object({ ok: z.literal(true) });

export function healthRoutes(app: ApiInstance): void {
  app.get(
    '/api/health',
    { schema: { summary: 'The server answers', tags: ['meta'], response: { 200: healthAnswer } } },
    async () => ({ ok: true as const }),
  );
}
