import { Counter, Histogram, Registry } from 'prom-client';

/**
 * The product's own Prometheus metrics, in a registry per app (tests build many apps in one process; the HTTP and
 * process metrics fastify-metrics adds go in the same registry). Names follow Prometheus' conventions: a `kassa_`
 * prefix, base units (seconds), `_total` for counters.
 */
export function createMetrics() {
  const registry = new Registry();
  return {
    registry,
    paymentAttempts: new Counter({
      name: 'kassa_payment_attempts_total',
      help: 'Sales the gateway answered, by outcome: succeeded, declined, refused (no transaction), undecided, unavailable (no answer). A resent attempt counts again.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    gatewayDuration: new Histogram({
      name: 'kassa_gateway_request_duration_seconds',
      help: 'How long the gateway took to answer, by operation and whether it answered (ok) or not (unavailable).',
      labelNames: ['operation', 'result'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    botcheckVerifications: new Counter({
      name: 'kassa_botcheck_verifications_total',
      help: 'Bot-check tokens verified, by provider and outcome: passed, failed, unavailable (the provider could not be asked).',
      labelNames: ['provider', 'outcome'] as const,
      registers: [registry],
    }),
    webhookLag: new Histogram({
      name: 'kassa_webhook_lag_seconds',
      help: "From the gateway's timestamp on a verified webhook notification to its arrival here, by kind.",
      labelNames: ['kind'] as const,
      buckets: [0.5, 1, 5, 15, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
