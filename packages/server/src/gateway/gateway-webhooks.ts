/**
 * The gateway's signed webhook notifications, as the product needs them: verified, then reduced to the facts the
 * product keeps (a transaction's settlement, a subscription's status, a dispute). One adapter: the official SDK.
 */
export interface WebhookVerifier {
  /** Verifies the signature and reads the notification; throws `InvalidWebhookError` when either fails. */
  parse(signature: string, payload: string): Promise<GatewayNotification>;
}

/** The signature does not verify, or the payload is not a notification: nothing in it may be trusted. */
export class InvalidWebhookError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidWebhookError';
  }
}

interface NotificationBase {
  /** The provider's kind (`transaction_settled`, ...). */
  kind: string;
  /** When the gateway made the notification (ISO-8601 UTC): the same for every delivery of it. */
  timestamp: string;
}

export type GatewayNotification = NotificationBase &
  (
    | { subject: 'transaction'; transaction: { id: string; status: string } }
    | {
        subject: 'subscription';
        /** Null where the notification leaves it out (the SDK's sample notifications carry only the id). */
        subscription: {
          id: string;
          planId: string | null;
          status: string | null;
          nextBillingDate: string | null;
          failureCount: number | null;
        };
      }
    | {
        subject: 'dispute';
        dispute: {
          id: string;
          status: string;
          kind: string;
          reason: string;
          amount: string;
          currency: string;
          transactionId: string;
        };
      }
    /** A kind the product does not act on (recorded all the same). */
    | { subject: 'other'; subjectId: string }
  );

/** The id of what a notification is about. */
export function subjectId(notification: GatewayNotification): string {
  switch (notification.subject) {
    case 'transaction':
      return notification.transaction.id;
    case 'subscription':
      return notification.subscription.id;
    case 'dispute':
      return notification.dispute.id;
    case 'other':
      return notification.subjectId;
  }
}
