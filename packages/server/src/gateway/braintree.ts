import braintree from 'braintree';
import type { GatewayConfig } from '../config.ts';
import { GatewayUnavailableError, UnknownCustomerError } from './gateway.ts';
import type { PaymentGateway, SaleInput, SaleOutcome } from './gateway.ts';

/** Builds the SDK client for either a local gateway (the sandbox) or Braintree itself. */
export function createBraintreeClient(config: GatewayConfig): braintree.BraintreeGateway {
  const environment =
    config.kind === 'custom'
      ? new braintree.Environment(config.host, String(config.port), `${config.ssl ? 'https' : 'http'}://${config.host}`, config.ssl, config.host, String(config.port))
      : config.environment === 'production'
        ? braintree.Environment.Production
        : braintree.Environment.Sandbox;
  return new braintree.BraintreeGateway({ environment, merchantId: config.merchantId, publicKey: config.publicKey, privateKey: config.privateKey });
}

/** The statuses of a sale that mean the money will move. */
const SUCCESS_STATUSES = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settled', 'settlement_pending', 'settlement_confirmed']);

/** The SDK's void takes options such as apiRequestKey (its source, gateway.md); @types/braintree declares only the id. */
type VoidWithOptions = (transactionId: string, options: { apiRequestKey: string }) => Promise<braintree.ValidatedResponse<braintree.Transaction>>;

/** "Customer specified by customer_id does not exist", answered to clientToken.generate. */
const UNKNOWN_CUSTOMER = '92804';

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

  async generateClientToken(input: { customerId?: string }): Promise<string> {
    const result = await this.#call(() => this.#client.clientToken.generate(input.customerId === undefined ? {} : { customerId: input.customerId }));
    if (!result.success) {
      if (errorCodes(result).includes(UNKNOWN_CUSTOMER) && input.customerId !== undefined) throw new UnknownCustomerError(input.customerId);
      throw new GatewayUnavailableError(`clientToken.generate failed: ${result.message}`);
    }
    return result.clientToken;
  }

  async sale(input: SaleInput): Promise<SaleOutcome> {
    // apiRequestKey is sent by the SDK (it is in its signature) but missing from @types/braintree.
    const request: braintree.TransactionRequest & { apiRequestKey: string } = {
      amount: input.amount,
      paymentMethodNonce: input.nonce,
      orderId: input.orderId,
      options: { submitForSettlement: true },
      apiRequestKey: input.requestKey,
      ...(input.deviceData !== undefined ? { deviceData: input.deviceData } : {}),
      ...(input.merchantAccountId !== undefined ? { merchantAccountId: input.merchantAccountId } : {}),
    };
    const result = await this.#call(() => this.#client.transaction.sale(request));
    const transaction = (result as { transaction?: braintree.Transaction }).transaction;
    if (result.success && transaction !== undefined && SUCCESS_STATUSES.has(transaction.status)) {
      // The amount means nothing in another currency: take the charge back before anyone is billed.
      if (transaction.currencyIsoCode !== input.currency) return this.#voidMismatch(transaction, input);
      return {
        kind: 'succeeded',
        transactionId: transaction.id,
        card: { brand: transaction.creditCard?.cardType ?? 'Unknown', lastFour: transaction.creditCard?.last4 ?? '' },
      };
    }
    if (transaction === undefined) {
      // Same request key with another request, or still in flight: the first request's outcome is not known here.
      const codes = errorCodes(result);
      if (codes.some((code) => REQUEST_KEY_CONFLICTS.has(code))) {
        throw new GatewayUnavailableError(`gateway request key conflict (${codes.join(', ')}): outcome unknown`);
      }
      if (input.resend) {
        throw new GatewayUnavailableError(`a resent sale was refused (${codes.join(', ') || result.message}): the first request's outcome is unknown`);
      }
      // Validation errors (e.g. a consumed or unknown nonce): the gateway refused before any processor saw it.
      return { kind: 'declined', reason: 'gateway_rejected', processorResponseText: result.message };
    }
    const common = {
      transactionId: transaction.id,
      ...optional('processorResponseCode', transaction.processorResponseCode),
      ...optional('processorResponseText', transaction.processorResponseText),
    };
    if (transaction.status === 'gateway_rejected') {
      return { kind: 'declined', reason: 'gateway_rejected', ...common, ...optional('gatewayRejectionReason', transaction.gatewayRejectionReason) };
    }
    if (transaction.status === 'failed') return { kind: 'declined', reason: 'processor_unavailable', ...common };
    if (transaction.status === 'processor_declined') return { kind: 'declined', reason: 'processor_declined', ...common };
    // Any other status (authorizing, ...) may still become a charge: not a decline.
    throw new GatewayUnavailableError(`sale ${transaction.id} answered with status ${transaction.status}: outcome unknown`);
  }

  /**
   * Voids a charge made in the wrong currency. Only a transaction the gateway confirms voided is a decline; a void
   * that fails leaves the outcome unknown (thrown), so the attempt stays pending and no second card is charged.
   */
  async #voidMismatch(transaction: braintree.Transaction, input: SaleInput): Promise<SaleOutcome> {
    // Its own request key: a repeated void (a resend of the sale) replays the first void's answer.
    const voidTransaction = this.#client.transaction.void.bind(this.#client.transaction) as unknown as VoidWithOptions;
    const voided = await this.#call(() => voidTransaction(transaction.id, { apiRequestKey: `${input.requestKey}-void` }));
    if (!voided.success) {
      const current = await this.#call(() => this.#client.transaction.find(transaction.id));
      if (current.status !== 'voided') {
        throw new GatewayUnavailableError(
          `sale ${transaction.id} charged ${transaction.currencyIsoCode} for an order in ${input.currency} and could not be voided (${voided.message}); it is ${current.status}`,
        );
      }
    }
    const text = `charged in ${transaction.currencyIsoCode} for an order in ${input.currency}; voided`;
    return { kind: 'declined', reason: 'currency_mismatch', transactionId: transaction.id, processorResponseText: text };
  }

  /** SDK exceptions (network, 5xx, auth) all mean: we do not know what happened. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new GatewayUnavailableError(`gateway call failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
    }
  }
}

/** The gateway's validation error codes of a failed result (none for a success). */
function errorCodes<T>(result: braintree.ValidatedResponse<T>): string[] {
  return result.success ? [] : result.errors.deepErrors().map((error) => String(error.code));
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === undefined || value === null || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}
