import type { BotcheckVerifier, ReplayStore } from './botcheck/verifier.ts';
import type { SessionsRepository } from './accounts/sessions.repository.ts';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { CardLookup } from './gateway/card-lookup.ts';
import type { DisputeGateway } from './gateway/dispute-gateway.ts';
import type { PaymentGateway } from './gateway/gateway.ts';
import type { WebhookVerifier } from './gateway/gateway-webhooks.ts';
import type { VaultGateway } from './gateway/vault-gateway.ts';
import type { MailOutbox } from './mail/outbox.ts';
import type { IdempotencyRepository } from './payments/idempotency.repository.ts';
import type { ShopAlert } from './velocity/shop-alert.ts';
import type { Velocity } from './velocity/velocity.ts';

/** What routes and plugins need, built once in buildApp and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  gateway: PaymentGateway | null;
  /** Saved cards and subscriptions at the same gateway (null exactly when `gateway` is). */
  vault: VaultGateway | null;
  /** The gateway's disputes, which the merchant accepts or answers (null exactly when `gateway` is not configured). */
  disputes: DisputeGateway | null;
  /** Verifies the gateway's webhook notifications (null exactly when `gateway` is not configured). */
  webhooks: WebhookVerifier | null;
  /** Describes a payment's nonce (BIN, last four, expiry) for the card velocity rules; null without a gateway. */
  cards: CardLookup | null;
  botcheck: BotcheckVerifier;
  /** The interactive provider payments and card saves need while the shop alert is raised (BOTCHECK_ALERT_PROVIDER). */
  alertBotcheck: BotcheckVerifier | null;
  replays: ReplayStore;
  sessions: SessionsRepository;
  idempotency: IdempotencyRepository;
  velocity: Velocity;
  /** Raised while the shop's declines say it is under attack: challenges cost more. */
  shopAlert: ShopAlert;
  /** Mail to send (written by requests, sent by the mail sender through the configured delivery). */
  outbox: MailOutbox;
  /** Tells the mail sender a mail is waiting, so it goes now rather than at the next round. */
  wakeMailSender: () => void;
}
