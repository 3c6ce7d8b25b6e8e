import type { Transaction } from './transactions.ts';
import type { SubscriptionView } from './vault-operations.ts';
import type { Dispute } from './disputes.ts';

// What happened in the gateway that a merchant hears of by webhook. core/ only reports the facts; webhooks/ turns
// them into signed notifications (and does nothing when no webhook URL is configured).

export type GatewayEvent =
  | { kind: 'transaction_settled' | 'transaction_settlement_declined'; transaction: Transaction }
  | {
      kind:
        | 'subscription_charged_successfully'
        | 'subscription_charged_unsuccessfully'
        | 'subscription_went_past_due'
        | 'subscription_went_active'
        | 'subscription_canceled'
        | 'subscription_expired';
      subscription: SubscriptionView;
    }
  | { kind: 'dispute_opened' | 'dispute_accepted' | 'dispute_won' | 'dispute_lost'; dispute: Dispute };

export type GatewayEventKind = GatewayEvent['kind'];

/** Receives events synchronously, in the same step as the change they report (so both are stored together). */
export type EventSink = (event: GatewayEvent, at: Date) => void;
