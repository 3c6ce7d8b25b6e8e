// What the checkout needs from a card payment provider. The sandbox implementation talks to Kassa's embedded
// gateway; a braintree-web implementation (real provider, loaded only when used) will implement the same interface.
import type { CheckoutErrorInfo, FieldName, GatewayConfiguration } from '../machine/checkout.types.ts';
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../fields/hosted-fields.ts';

export interface ProviderClient {
  /** Loads the gateway configuration; rejects with a ProviderError. */
  getConfiguration(signal: AbortSignal): Promise<GatewayConfiguration>;
  /** Mounts the hosted card fields for a loaded configuration. */
  createHostedFields(config: GatewayConfiguration, options: Omit<HostedFieldsOptions, 'assetsUrl'>): HostedFields;
  /** Asks the fields to send the card to the gateway; never rejects, failures are outcomes. */
  tokenize(fields: HostedFields, config: GatewayConfiguration, fieldNames: readonly FieldName[]): Promise<TokenizeOutcome>;
}

/** A load failure with its stable code and catalogue message. */
export class ProviderError extends Error {
  readonly info: CheckoutErrorInfo;
  constructor(info: CheckoutErrorInfo, detail: string) {
    super(detail);
    this.name = 'ProviderError';
    this.info = info;
  }
}
