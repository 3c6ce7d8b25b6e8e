import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { seedDemoAccounts } from './accounts/accounts.service.ts';
import type { DemoCredentials } from './accounts/accounts.service.ts';
import { SessionsRepository } from './accounts/sessions.repository.ts';
import { DbReplayStore } from './botcheck/replay-store.ts';
import { createBotcheckVerifier } from './botcheck/request-check.ts';
import { seedDemoCatalogue } from './catalogue/demo-catalogue.ts';
import type { Config, TrustProxy } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import type { DatabaseHandle } from './db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from './gateway/braintree.ts';
import { BraintreeCardLookup } from './gateway/braintree-card-lookup.ts';
import type { PaymentGateway } from './gateway/gateway.ts';
import { BraintreeVaultAdapter } from './gateway/braintree-vault.ts';
import { BraintreeWebhookVerifier } from './gateway/braintree-webhooks.ts';
import type { VaultGateway } from './gateway/vault-gateway.ts';
import { createLogger, RequestLinesAtDebug } from './logger.ts';
import { IdempotencyRepository } from './payments/idempotency.repository.ts';
import { registerDatabaseLifecycle } from './plugins/db.ts';
import { registerCrossSiteRefusal } from './plugins/cross-site.ts';
import { answerFrameworkError, registerErrorMapping } from './plugins/errors.ts';
import { registerAdminRoutesGuard } from './plugins/admin.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { openApiRoutes, registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSessions } from './plugins/sessions.ts';
import { registerStaticWeb } from './plugins/static-web.ts';
import { accountsRoutes } from './routes/accounts/accounts.routes.ts';
import { adminRoutes } from './routes/admin/admin.routes.ts';
import { botcheckRoutes } from './routes/botcheck/botcheck.routes.ts';
import { catalogueRoutes } from './routes/catalogue/catalogue.routes.ts';
import { gatewayWebhookRoutes } from './routes/gateway-webhooks/gateway-webhooks.routes.ts';
import { configRoutes } from './routes/config/config.routes.ts';
import { healthRoutes } from './routes/health/health.routes.ts';
import { ordersRoutes } from './routes/orders/orders.routes.ts';
import { paymentMethodsRoutes } from './routes/payment-methods/payment-methods.routes.ts';
import { formPaymentsRoutes } from './routes/payments/form-payments.routes.ts';
import { paymentsRoutes } from './routes/payments/payments.routes.ts';
import { refusalsRoutes } from './routes/refusals/refusals.routes.ts';
import { sessionRoutes } from './routes/session/session.routes.ts';
import { subscriptionsRoutes } from './routes/subscriptions/subscriptions.routes.ts';
import { startReconciler } from './jobs/reconciler.ts';
import { instrumentBotcheck, instrumentGateway, instrumentWebhooks } from './metrics/instrument.ts';
import { createMetrics } from './metrics/metrics.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { ShopAlert } from './velocity/shop-alert.ts';
import { Velocity } from './velocity/velocity.ts';
import { seedDemoVault } from './vault/demo-vault.ts';

export interface AppDeps {
  /** An open database; otherwise the configured one is opened (and closed with the app). */
  database?: DatabaseHandle;
  /** A gateway; otherwise the configured braintree SDK client (or none when not configured). */
  gateway?: PaymentGateway | null;
  /** The gateway's vault; otherwise the configured braintree SDK client's (or none when not configured). */
  vault?: VaultGateway | null;
  logger?: Logger;
  /** Give the demo shopper a saved card and a subscription at the gateway (DEMO_SEED); the running product does. */
  seedDemoVault?: boolean;
}

export interface KassaApp {
  app: FastifyInstance;
  /** The seeded demo accounts, when DEMO_SEED is on. */
  demo: DemoCredentials | null;
}

/** Fastify's types leave out its hop-count form: the same trust as a function (the first N hops are proxies). */
function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the whole server without listening: plugins in order (external, then app), then routes. */
export async function buildKassaApp(config: Config, deps: AppDeps = {}): Promise<KassaApp> {
  const logger = deps.logger ?? createLogger(config);
  const database = deps.database ?? (await openDatabase(config.database));
  const client = config.gateway === null ? null : createBraintreeClient(config.gateway, config.gatewayTimeoutMs);
  const metrics = createMetrics();
  const adapter = deps.gateway !== undefined ? deps.gateway : client === null ? null : new BraintreeGatewayAdapter(client);
  const gateway = adapter === null ? null : instrumentGateway(adapter, metrics);
  const vault =
    deps.vault !== undefined ? deps.vault : client === null || gateway === null ? null : new BraintreeVaultAdapter(client);

  let demo: DemoCredentials | null = null;
  if (config.demo.seed) {
    await seedDemoCatalogue(database.db);
    demo = await seedDemoAccounts(database.db, config.demo);
  }

  const velocity = new Velocity(database.db);
  const ctx: AppContext = {
    config,
    db: database.db,
    gateway,
    vault,
    webhooks: client === null ? null : instrumentWebhooks(new BraintreeWebhookVerifier(client), metrics),
    cards: client === null || gateway === null ? null : new BraintreeCardLookup(client),
    botcheck: instrumentBotcheck(createBotcheckVerifier(config.botcheck), metrics),
    replays: new DbReplayStore(database.db),
    sessions: new SessionsRepository(database.db, config.sessionSecret),
    idempotency: new IdempotencyRepository(database.db, config.staleAttemptMs),
    velocity,
    shopAlert: new ShopAlert(velocity, config.velocity.shopAlert),
  };

  // Typed as Fastify's logger so the instance keeps the default generics the route modules expect.
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance,
    logController: new RequestLinesAtDebug(),
    bodyLimit: 64 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    frameworkErrors: answerFrameworkError,
  });

  // External plugins.
  await registerSecurityHeaders(app, config);
  await registerRateLimits(app);
  await registerOpenApi(app);
  await registerMetrics(app, metrics, config.metricsToken);
  // App plugins.
  registerDatabaseLifecycle(app, database, deps.database === undefined);
  registerErrorMapping(app);
  registerCrossSiteRefusal(app);
  await registerSessions(app, ctx);
  registerIdempotency(app, ctx.idempotency);
  registerAdminRoutesGuard(app, ctx.db);
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
  });
  await registerStaticWeb(app, config.webDist);
  // Routes, declared schema-first (plugins/openapi.ts).
  const api = app.withTypeProvider<ZodTypeProvider>();
  openApiRoutes(app);
  healthRoutes(api);
  catalogueRoutes(api, ctx);
  configRoutes(api, ctx);
  accountsRoutes(api, ctx);
  sessionRoutes(api, ctx);
  ordersRoutes(api, ctx);
  botcheckRoutes(api, ctx);
  paymentsRoutes(api, ctx);
  await formPaymentsRoutes(api, ctx);
  paymentMethodsRoutes(api, ctx);
  subscriptionsRoutes(api, ctx);
  await gatewayWebhookRoutes(api, ctx);
  if (demo !== null && deps.seedDemoVault === true && gateway !== null && vault !== null) {
    await seedDemoVault({ db: database.db, gateway, vault }, demo.shopper.email, app.log);
  }
  adminRoutes(api, ctx);
  refusalsRoutes(api, ctx);
  // Jobs.
  if (gateway !== null && config.reconcileIntervalMs > 0) {
    const stop = startReconciler(
      { db: database.db, gateway, log: app.log, staleAttemptMs: config.staleAttemptMs },
      config.reconcileIntervalMs,
    );
    app.addHook('onClose', async () => stop());
  }

  await app.ready();
  return { app, demo };
}
