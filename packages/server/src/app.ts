import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { seedDemoAccounts } from './accounts/accounts.service.ts';
import type { DemoCredentials } from './accounts/accounts.service.ts';
import { SessionsRepository } from './accounts/sessions.repository.ts';
import { DbReplayStore } from './botcheck/replay-store.ts';
import { createAlertVerifier, createBotcheckVerifier } from './botcheck/request-check.ts';
import { seedDemoCatalogue } from './catalogue/demo-catalogue.ts';
import type { Config, TrustProxy } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import type { DatabaseHandle } from './db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from './gateway/braintree.ts';
import { BraintreeCardLookup } from './gateway/braintree-card-lookup.ts';
import type { CardLookup } from './gateway/card-lookup.ts';
import type { PaymentGateway } from './gateway/gateway.ts';
import { BraintreeDisputesAdapter } from './gateway/braintree-disputes.ts';
import { BraintreeVaultAdapter } from './gateway/braintree-vault.ts';
import { BraintreeWebhookVerifier } from './gateway/braintree-webhooks.ts';
import type { VaultGateway } from './gateway/vault-gateway.ts';
import { createLogger, RequestLinesAtDebug } from './logger.ts';
import { IdempotencyRepository } from './payments/idempotency.repository.ts';
import { DevMailDelivery, SmtpMailDelivery } from './mail/delivery.ts';
import type { MailDelivery } from './mail/delivery.ts';
import { MailOutbox, startMailSender } from './mail/outbox.ts';
import { registerDatabaseLifecycle } from './plugins/db.ts';
import { registerCrossSiteRefusal } from './plugins/cross-site.ts';
import { answerFrameworkError, registerErrorMapping } from './plugins/errors.ts';
import { registerAdminRoutesGuard } from './plugins/admin.ts';
import { registerConnectionClose } from './plugins/connection-close.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { openApiRoutes, registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSessions } from './plugins/sessions.ts';
import { registerStaticWeb } from './plugins/static-web.ts';
import { accountsRoutes } from './routes/accounts/accounts.routes.ts';
import { adminRoutes } from './routes/admin/admin.routes.ts';
import { botcheckRoutes } from './routes/botcheck/botcheck.routes.ts';
import { devOutboxRoutes } from './routes/dev/dev-outbox.routes.ts';
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
import { startSweeper, sweepSettings } from './jobs/sweeper.ts';
import { instrumentBotcheck, instrumentGateway, instrumentWebhooks } from './metrics/instrument.ts';
import { createMetrics } from './metrics/metrics.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { ShopAlert } from './velocity/shop-alert.ts';
import { outcomeCounter } from './velocity/guard.ts';
import { Velocity } from './velocity/velocity.ts';
import { seedDemoVault } from './vault/demo-vault.ts';

/** How often the outbox is swept for mail a failed round left (each new mail wakes the sender at once). */
const MAIL_ROUND_MS = 30_000;

export interface AppDeps {
  /** An open database; otherwise the configured one is opened (and closed with the app). */
  database?: DatabaseHandle;
  /** A gateway; otherwise the configured braintree SDK client (or none when not configured). */
  gateway?: PaymentGateway | null;
  /** The gateway's vault; otherwise the configured braintree SDK client's (or none when not configured). */
  vault?: VaultGateway | null;
  /** What the gateway says of a card's nonce; otherwise the configured braintree SDK client's. */
  cards?: CardLookup | null;
  logger?: Logger;
  /** How mail leaves the outbox; otherwise SMTP_URL's server, or the dev delivery (readable at /api/dev/outbox). */
  mailDelivery?: MailDelivery;
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
  const database = deps.database ?? (await openDatabase(config.database, { checkpointInWorker: true }));
  const client = config.gateway === null ? null : createBraintreeClient(config.gateway, config.gatewayTimeoutMs);
  const metrics = createMetrics();
  const adapter = deps.gateway !== undefined ? deps.gateway : client === null ? null : new BraintreeGatewayAdapter(client);
  const gateway = adapter === null ? null : instrumentGateway(adapter, metrics);
  const vault =
    deps.vault !== undefined ? deps.vault : client === null || gateway === null ? null : new BraintreeVaultAdapter(client);

  let demo: DemoCredentials | null = null;
  if (config.demo.seed) {
    await seedDemoCatalogue(database.db);
    demo = await seedDemoAccounts(database.db, config.demo, config.passwordCost);
  }

  const velocity = new Velocity(database.db);
  const alertVerifier = createAlertVerifier(config.botcheck);
  const delivery =
    deps.mailDelivery ??
    (config.mail.smtpUrl === null ? new DevMailDelivery(logger) : new SmtpMailDelivery(config.mail.smtpUrl, config.mail.from));
  const outbox = new MailOutbox(database.db, delivery, logger);
  const mailSender = startMailSender(outbox, logger, MAIL_ROUND_MS);
  const ctx: AppContext = {
    config,
    db: database.db,
    gateway,
    vault,
    disputes: client === null ? null : new BraintreeDisputesAdapter(client),
    webhooks: client === null ? null : instrumentWebhooks(new BraintreeWebhookVerifier(client), metrics),
    cards: deps.cards !== undefined ? deps.cards : client === null || gateway === null ? null : new BraintreeCardLookup(client),
    botcheck: instrumentBotcheck(createBotcheckVerifier(config.botcheck), metrics),
    alertBotcheck: alertVerifier === null ? null : instrumentBotcheck(alertVerifier, metrics),
    replays: new DbReplayStore(database.db),
    sessions: new SessionsRepository(database.db, config.sessionSecret),
    idempotency: new IdempotencyRepository(database.db, config.staleAttemptMs),
    velocity,
    shopAlert: new ShopAlert(velocity, config.velocity.shopAlert),
    outbox,
    wakeMailSender: mailSender.kick,
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
  registerSecurityHeaders(app, config);
  await registerRateLimits(app, database.db);
  await registerOpenApi(app);
  await registerMetrics(app, metrics, config.metricsToken);
  // App plugins.
  // Before anything closes (preClose precedes every onClose): a mail round under way finishes, no new one starts.
  app.addHook('preClose', async () => mailSender.stop());
  registerConnectionClose(app);
  registerDatabaseLifecycle(app, database, deps.database === undefined);
  registerErrorMapping(app);
  registerCrossSiteRefusal(app);
  await registerSessions(app, ctx);
  registerIdempotency(app, ctx.idempotency);
  const adminActions = registerAdminRoutesGuard(app, ctx.db);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await registerStaticWeb(app, config.webDist);
  // Routes, declared schema-first (plugins/openapi.ts).
  const api = app.withTypeProvider<ZodTypeProvider>();
  openApiRoutes(app);
  healthRoutes(api);
  catalogueRoutes(api, ctx);
  configRoutes(api, ctx);
  accountsRoutes(api, ctx);
  devOutboxRoutes(api, ctx);
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
  adminRoutes(api, ctx, adminActions);
  refusalsRoutes(api, ctx);
  // Jobs.
  if (gateway !== null && config.reconcileIntervalMs > 0) {
    const stop = startReconciler(
      {
        db: database.db,
        gateway,
        log: app.log,
        staleAttemptMs: config.staleAttemptMs,
        countOutcome: outcomeCounter(velocity),
      },
      config.reconcileIntervalMs,
    );
    app.addHook('onClose', async () => stop());
  }
  const stopSweeper = startSweeper({ database, settings: sweepSettings(config.botcheck), log: app.log }, config.sweepIntervalMs);
  app.addHook('onClose', async () => stopSweeper());

  await app.ready();
  return { app, demo };
}
