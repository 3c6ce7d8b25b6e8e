import { z } from 'zod';
import { listProducts, productSchema } from '../../catalogue/catalogue.repository.ts';
import { listPlans, planSchema } from '../../catalogue/plans.repository.ts';
import type { AppContext } from '../../context.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';

const catalogueAnswer = z.object({ products: z.array(productSchema), plans: z.array(planSchema) });

export function catalogueRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/catalogue',
    {
      schema: {
        summary: 'The products on sale and the subscription plans, priced in minor units',
        tags: ['catalogue'],
        response: { 200: catalogueAnswer },
      },
    },
    async () => ({ products: await listProducts(ctx.db), plans: await listPlans(ctx.db) }),
  );
}
