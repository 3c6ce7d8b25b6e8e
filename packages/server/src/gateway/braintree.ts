import braintree from 'braintree';
import type { GatewayConfig } from '../config.ts';
import { GatewayUnavailableError } from './gateway.ts';
import type {
  GatewayDeclineReason,
  PaymentGateway,
  RefundResult,
  SaleInput,
  SaleResult,
  ThreeDSecureOutcome,
  TransactionHistory,
  VoidResult,
} from './gateway.ts';

/** Builds the SDK client for either a local gateway (the sandbox) or Braintree itself. */
/** `timeoutMs`: how long the SDK waits for one call's answer (its own default is 60 s). */
export function createBraintreeClient(config: GatewayConfig, timeoutMs?: number): braintree.BraintreeGateway {
  const environment =
    config.kind === 'custom'
      ? new braintree.Environment(
          config.host,
          String(config.port),
          `${config.ssl ? 'https' : 'http'}://${config.host}`,
          config.ssl,
          config.host,
          String(config.port),
        )
      : config.environment === 'production'
        ? braintree.Environment.Production
        : braintree.Environment.Sandbox;
  const client = new braintree.BraintreeGateway({
    environment,
    merchantId: config.merchantId,
    publicKey: config.publicKey,
    privateKey: config.privateKey,
  });
  // The SDK takes no time-out in its constructor; its HTTP layer reads `config.timeout` on every call.
  if (timeoutMs !== undefined) (client as unknown as { config: { timeout: number } }).config.timeout = timeoutMs;
  return client;
}

/** The statuses of a sale that mean the money will move. */
const SUCCESS_STATUSES = new Set([
  'authorized',
  'submitted_for_settlement',
  'settling',
  'settled',
  'settlement_pending',
  'settlement_confirmed',
]);

/** The statuses of a sale that did not go through, and why. */
const DECLINE_STATUSES: Partial<Record<string, GatewayDeclineReason>> = {
  processor_declined: 'processor_declined',
  gateway_rejected: 'gateway_rejected',
  failed: 'processor_unavailable',
};

/** The SDK's void takes options such as apiRequestKey (its source, gateway.md); @types/braintree declares only the id. */
type VoidWithOptions = (
  transactionId: string,
  options: { apiRequestKey: string },
) => Promise<braintree.ValidatedResponse<braintree.Transaction>>;
/** Likewise refund(id, { amount, apiRequestKey }) (the SDK's source, gateway.md); @types/braintree declares (id, amount). */
type RefundWithOptions = (
  transactionId: string,
  options: { amount: string; apiRequestKey: string },
) => Promise<braintree.ValidatedResponse<braintree.Transaction>>;

/** gateway.md: 915232 same apiRequestKey with a different request, 915233 the first request still in flight. */
const REQUEST_KEY_CONFLICTS = new Set(['915232', '915233']);

export class BraintreeGatewayAdapter implements PaymentGateway {
  readonly #client: braintree.BraintreeGateway;

  constructor(client: braintree.BraintreeGateway) {
    this.#client = client;
  }

  async createCustomer(input: { email: string; name: string }): Promise<{ customerId: string }> {
    const [firstName, ...rest] = input.name.trim().split(/\s+/);
    const result = await this.#call(() =>
      this.#client.customer.create({ email: input.email, firstName: firstName ?? '', lastName: rest.join(' ') || undefined }),
    );
    if (!result.success) throw new GatewayUnavailableError(`customer.create failed: ${result.message}`);
    return { customerId: result.customer.id };
  }

  async generateClientToken(): Promise<string> {
    const result = await this.#call(() => this.#client.clientToken.generate({}));
    if (!result.success) throw new GatewayUnavailableError(`clientToken.generate failed: ${result.message}`);
    return result.clientToken;
  }

  async sale(input: SaleInput): Promise<SaleResult> {
    // apiRequestKey is sent by the SDK (it is in its signature) but missing from @types/braintree.
    const request: braintree.TransactionRequest & { apiRequestKey: string } = {
      amount: input.amount,
      paymentMethodNonce: input.nonce,
      orderId: input.orderId,
      options: {
        submitForSettlement: true,
        ...(input.vaultCustomerId !== undefined ? { storeInVaultOnSuccess: true } : {}),
        ...(input.threeDSecureRequired === true ? { threeDSecure: { required: true } } : {}),
      },
      apiRequestKey: input.requestKey,
      ...(input.deviceData !== undefined ? { deviceData: input.deviceData } : {}),
      ...(input.merchantAccountId !== undefined ? { merchantAccountId: input.merchantAccountId } : {}),
      ...(input.vaultCustomerId !== undefined ? { customerId: input.vaultCustomerId } : {}),
    };
    const result = await this.#call(() => this.#client.transaction.sale(request));
    const transaction = (result as { transaction?: braintree.Transaction }).transaction;
    if (transaction === undefined) {
      const codes = errorCodes(result);
      const reason = codes.some((code) => REQUEST_KEY_CONFLICTS.has(code)) ? 'request_key_conflict' : 'invalid_request';
      return { kind: 'refused', reason, codes, message: result.message };
    }
    if (result.success && SUCCESS_STATUSES.has(transaction.status)) {
      return {
        kind: 'charged',
        transactionId: transaction.id,
        status: transaction.status,
        currency: transaction.currencyIsoCode,
        paymentMethodType: transaction.paymentInstrumentType,
        threeDSecure: threeDSecureOf(transaction),
        card: paidWith(transaction),
      };
    }
    const reason = DECLINE_STATUSES[transaction.status];
    if (reason === undefined) return { kind: 'undecided', transactionId: transaction.id, status: transaction.status };
    return {
      kind: 'declined',
      reason,
      transactionId: transaction.id,
      paymentMethodType: transaction.paymentInstrumentType,
      threeDSecure: threeDSecureOf(transaction),
      ...optional('processorResponseCode', transaction.processorResponseCode),
      ...optional('processorResponseText', transaction.processorResponseText),
      ...(reason === 'gateway_rejected' ? optional('gatewayRejectionReason', transaction.gatewayRejectionReason) : {}),
    };
  }

  async voidTransaction(transactionId: string, input: { requestKey: string }): Promise<VoidResult> {
    const voidTransaction = this.#client.transaction.void.bind(this.#client.transaction) as unknown as VoidWithOptions;
    const voided = await this.#call(() => voidTransaction(transactionId, { apiRequestKey: input.requestKey }));
    return voided.success ? { kind: 'voided' } : { kind: 'refused', codes: errorCodes(voided), message: voided.message };
  }

  async refundTransaction(transactionId: string, input: { amount: string; requestKey: string }): Promise<RefundResult> {
    const refund = this.#client.transaction.refund.bind(this.#client.transaction) as unknown as RefundWithOptions;
    const result = await this.#call(() => refund(transactionId, { amount: input.amount, apiRequestKey: input.requestKey }));
    return result.success
      ? { kind: 'refunded', transactionId: result.transaction.id }
      : { kind: 'refused', codes: errorCodes(result), message: result.message };
  }

  async transactionStatus(transactionId: string): Promise<string> {
    return (await this.#call(() => this.#client.transaction.find(transactionId))).status;
  }

  async transactionHistory(transactionId: string): Promise<TransactionHistory> {
    const transaction = await this.#call(() => this.#client.transaction.find(transactionId));
    const history = (transaction.statusHistory ?? []).map((entry) => ({
      status: entry.status,
      at: new Date(entry.timestamp).toISOString(),
      amount: entry.amount ?? null,
    }));
    return { status: transaction.status, history };
  }

  #call<T>(run: () => Promise<T>): Promise<T> {
    return callGateway(run);
  }
}

/** SDK exceptions (network, 5xx, auth) all mean: we do not know what happened. */
export async function callGateway<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new GatewayUnavailableError(
      `gateway call failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      { cause: error },
    );
  }
}

/** The gateway's validation error codes of a failed result (none for a success). */
export function errorCodes<T>(result: braintree.ValidatedResponse<T>): string[] {
  return result.success ? [] : result.errors.deepErrors().map((error) => String(error.code));
}

/**
 * What the receipt names: the card, or the wallet (with its device card's last digits for Apple Pay and Google Pay).
 * A wallet's sale has an empty creditCard, as the provider's has.
 */
function paidWith(transaction: braintree.Transaction): { brand: string; lastFour: string } {
  switch (transaction.paymentInstrumentType) {
    case 'paypal_account':
      return { brand: 'PayPal', lastFour: '' };
    case 'venmo_account':
      return { brand: 'Venmo', lastFour: '' };
    case 'apple_pay_card':
      return { brand: 'Apple Pay', lastFour: transaction.applePayCard?.last4 ?? '' };
    case 'android_pay_card':
      return { brand: 'Google Pay', lastFour: transaction.androidPayCard?.sourceCardLast4 ?? '' };
    default:
      return { brand: transaction.creditCard?.cardType ?? 'Unknown', lastFour: transaction.creditCard?.last4 ?? '' };
  }
}

/** The transaction's threeDSecureInfo (null when the nonce carried no 3-D Secure result). */
function threeDSecureOf(transaction: braintree.Transaction): ThreeDSecureOutcome | null {
  const info = transaction.threeDSecureInfo;
  if (info === undefined || info === null) return null;
  return {
    status: info.status,
    liabilityShifted: info.liabilityShifted === true,
    liabilityShiftPossible: info.liabilityShiftPossible === true,
  };
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === undefined || value === null || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}
