import type { FastifyInstance } from 'fastify';
import { listProducts } from '../../catalogue/catalogue.repository.ts';
import type { AppContext } from '../../context.ts';

export function catalogueRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/catalogue', async () => ({ products: await listProducts(ctx.db) }));
}
