import braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';

// The server API as the product uses it: through the OFFICIAL braintree SDK, against a sandbox on a free port.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

function sdkFor(target: Sandbox, keys?: { publicKey: string; privateKey: string }): braintree.BraintreeGateway {
  const port = String(target.port);
  return new braintree.BraintreeGateway({
    environment: new braintree.Environment(target.host, port, `http://${target.host}`, false, target.host, port),
    merchantId: target.merchantId,
    publicKey: keys?.publicKey ?? target.publicKey,
    privateKey: keys?.privateKey ?? target.privateKey,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  gateway = sdkFor(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

/** `errors.on(attribute)` is an array at runtime; @types/braintree types it as one error. */
function codeOn(collection: braintree.ValidationErrorsCollection | undefined, attribute: string): string | undefined {
  const errors = collection?.on(attribute) as unknown as braintree.ValidationError[] | undefined;
  return errors?.[0]?.code;
}

/** apiRequestKey on submitForSettlement/void: the SDK accepts it, @types/braintree does not declare it. */
interface KeyedTransactionCalls {
  submitForSettlement(
    id: string,
    amount: string | undefined,
    options: { apiRequestKey: string },
  ): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
  void(id: string, options: { apiRequestKey: string }): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
}

function decodeToken(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
}

async function tokenizeVisa(): Promise<string> {
  const token = decodeToken((await gateway.clientToken.generate({})).clientToken);
  const response = await fetch(`${String(token['clientApiUrl'])}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: token['authorizationFingerprint'],
      creditCard: { number: '4111 1111 1111 1111', expirationDate: `12/${new Date().getUTCFullYear() + 2}`, cvv: '123' },
    }),
  });
  const body = (await response.json()) as { creditCards: Array<{ nonce: string }> };
  const [card] = body.creditCards;
  if (!card) throw new Error('no card');
  return card.nonce;
}

function sale(amount: string | undefined, nonce: string, extra: Partial<braintree.TransactionRequest> = {}) {
  const request = { paymentMethodNonce: nonce, ...extra } as braintree.TransactionRequest;
  if (amount !== undefined) request.amount = amount;
  return gateway.transaction.sale(request);
}

describe('client tokens', () => {
  it('generates a version 2 token with the contract shape', async () => {
    const result = await gateway.clientToken.generate({});
    expect(result.success).toBe(true);
    const token = decodeToken(result.clientToken);
    const clientApiUrl = `${sandbox.origin}/merchants/${sandbox.merchantId}/client_api`;
    expect(token).toEqual({
      version: 2,
      environment: 'sandbox',
      authorizationFingerprint: expect.any(String),
      configUrl: `${clientApiUrl}/v1/configuration`,
      clientApiUrl,
      assetsUrl: sandbox.origin,
      merchantId: sandbox.merchantId,
    });
  });

  it('binds a token to an existing customer and refuses an unknown one with 92804', async () => {
    const created = await gateway.customer.create({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    expect(created.success).toBe(true);
    const withCustomer = await gateway.clientToken.generate({ customerId: created.customer.id });
    expect(withCustomer.success).toBe(true);
    const fingerprint = String(decodeToken(withCustomer.clientToken)['authorizationFingerprint']);
    const guest = String(decodeToken((await gateway.clientToken.generate({})).clientToken)['authorizationFingerprint']);
    expect(fingerprint).not.toBe(guest);

    const unknown = await gateway.clientToken.generate({ customerId: 'nobody_here' });
    expect(unknown.success).toBe(false);
    expect(unknown.message).toBe('Customer specified by customer_id does not exist');
    expect(unknown.errors.deepErrors().map((error) => error.code)).toEqual(['92804']);
  });
});

describe('customers', () => {
  it('creates with or without an id, finds and deletes', async () => {
    const named = await gateway.customer.create({
      id: 'cust_42',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'g@example.com',
    });
    expect(named.success).toBe(true);
    expect(named.customer).toMatchObject({ id: 'cust_42', firstName: 'Grace', lastName: 'Hopper', email: 'g@example.com' });

    const generated = await gateway.customer.create({});
    expect(generated.customer.id).toMatch(/^[a-z0-9]+$/);

    const found = await gateway.customer.find('cust_42');
    expect(found).toMatchObject({ id: 'cust_42', firstName: 'Grace', creditCards: [] });

    const duplicate = await gateway.customer.create({ id: 'cust_42' });
    expect(duplicate.success).toBe(false);
    expect(codeOn(duplicate.errors.for('customer'), 'id')).toBe('91609');

    await gateway.customer.delete('cust_42');
    await expect(gateway.customer.find('cust_42')).rejects.toMatchObject({ type: 'notFoundError' });
    await expect(gateway.customer.delete('cust_42')).rejects.toMatchObject({ type: 'notFoundError' });
  });
});

describe('transaction.sale', () => {
  it('authorizes 0.01-1999.99 and carries the card details of the nonce', async () => {
    const nonce = await tokenizeVisa();
    const result = await sale('10.00', nonce, { orderId: 'ord_1', deviceData: '{"device_session_id":"x"}' });
    expect(result.success).toBe(true);
    expect(result.transaction).toMatchObject({
      status: 'authorized',
      type: 'sale',
      amount: '10.00',
      orderId: 'ord_1',
      processorResponseCode: '1000',
      processorResponseText: 'Approved',
      processorResponseType: 'approved',
    });
    expect(result.transaction.id).toMatch(/^[a-z0-9]+$/);
    expect(result.transaction.creditCard).toMatchObject({
      cardType: 'Visa',
      last4: '1111',
      bin: '411111',
      maskedNumber: '411111******1111',
      expirationMonth: '12',
      expirationYear: String(new Date().getUTCFullYear() + 2),
    });
  });

  it('submits for settlement when asked', async () => {
    const result = await sale('1999.99', 'fake-valid-nonce', { options: { submitForSettlement: true } });
    expect(result.success).toBe(true);
    expect(result.transaction.status).toBe('submitted_for_settlement');
    expect((result.transaction.statusHistory ?? []).map((event) => event.status)).toEqual([
      'authorized',
      'submitted_for_settlement',
    ]);
  });

  it.each([
    ['2000.00', '2000', 'Do Not Honor', 'soft_declined'],
    ['2015.00', '2015', 'Transaction Not Allowed', 'hard_declined'],
    ['2999.99', '2999', 'Processor Declined', 'soft_declined'],
  ])('declines %s with processor response %s', async (amount, code, text, type) => {
    const result = await sale(amount, 'fake-valid-visa-nonce');
    expect(result.success).toBe(false);
    expect(result.message).toBe(text);
    expect(result.transaction).toMatchObject({
      status: 'processor_declined',
      processorResponseCode: code,
      processorResponseText: text,
      processorResponseType: type,
    });
  });

  it('fails 3000.00-3000.99 with code 3000', async () => {
    const result = await sale('3000.50', 'fake-valid-nonce');
    expect(result.success).toBe(false);
    expect(result.transaction).toMatchObject({ status: 'failed', processorResponseCode: '3000' });
  });

  it('rejects 5001.00 as application_incomplete and authorizes other large amounts', async () => {
    const rejected = await sale('5001.00', 'fake-valid-nonce');
    expect(rejected.success).toBe(false);
    expect(rejected.transaction).toMatchObject({ status: 'gateway_rejected', gatewayRejectionReason: 'application_incomplete' });
    const large = await sale('5001.01', 'fake-valid-nonce');
    expect(large.transaction.status).toBe('authorized');
  });

  it('requires an amount (81502)', async () => {
    const result = await sale(undefined, 'fake-valid-nonce');
    expect(result.success).toBe(false);
    expect(result.transaction).toBeUndefined();
    expect(codeOn(result.errors.for('transaction'), 'amount')).toBe('81502');
  });

  it('uses a nonce once (91564) and refuses unknown nonces (91565)', async () => {
    const nonce = await tokenizeVisa();
    expect((await sale('5.00', nonce)).success).toBe(true);
    const again = await sale('5.00', nonce);
    expect(again.success).toBe(false);
    expect(codeOn(again.errors.for('transaction'), 'paymentMethodNonce')).toBe('91564');
    const unknown = await sale('5.00', 'no-such-nonce');
    expect(unknown.errors.deepErrors().map((error) => error.code)).toEqual(['91565']);
  });

  it('keeps a nonce usable when the sale fails validation', async () => {
    const nonce = await tokenizeVisa();
    expect((await sale(undefined, nonce)).success).toBe(false);
    expect((await sale('5.00', nonce)).success).toBe(true);
  });

  it.each([
    ['fake-valid-nonce', 'Visa'],
    ['fake-valid-visa-nonce', 'Visa'],
    ['fake-valid-amex-nonce', 'American Express'],
    ['fake-valid-mastercard-nonce', 'MasterCard'],
    ['fake-valid-discover-nonce', 'Discover'],
    ['fake-valid-jcb-nonce', 'JCB'],
    ['fake-valid-maestro-nonce', 'Maestro'],
    ['fake-valid-dinersclub-nonce', 'Diners Club'],
  ])('authorizes %s as %s, reusable', async (nonce, cardType) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await sale('12.34', nonce);
      expect(result.success).toBe(true);
      expect(result.transaction.creditCard?.cardType).toBe(cardType);
    }
  });

  it.each(['visa', 'mastercard', 'amex', 'discover'])('declines fake-processor-declined-%s-nonce with 2000', async (brand) => {
    const result = await sale('10.00', `fake-processor-declined-${brand}-nonce`);
    expect(result.success).toBe(false);
    expect(result.transaction).toMatchObject({ status: 'processor_declined', processorResponseCode: '2000' });
  });

  it('answers the special fake nonces as the provider does', async () => {
    const consumed = await sale('10.00', 'fake-consumed-nonce');
    expect(consumed.errors.deepErrors().map((error) => error.code)).toEqual(['91564']);
    const luhn = await sale('10.00', 'fake-luhn-invalid-nonce');
    expect(codeOn(luhn.errors.for('transaction')?.for('creditCard'), 'number')).toBe('81715');
    const fraud = await sale('10.00', 'fake-gateway-rejected-fraud-nonce');
    expect(fraud.transaction).toMatchObject({ status: 'gateway_rejected', gatewayRejectionReason: 'fraud' });
    const failure = await sale('10.00', 'fake-processor-failure-jcb-nonce');
    expect(failure.transaction).toMatchObject({ status: 'failed', processorResponseCode: '3000' });
  });

  it('rejects a required 3-D Secure check on a nonce without it', async () => {
    const result = await sale('10.00', 'fake-valid-nonce', { options: { threeDSecure: { required: true } } });
    expect(result.transaction).toMatchObject({ status: 'gateway_rejected', gatewayRejectionReason: 'three_d_secure' });
  });
});

describe('settlement, void, find', () => {
  it('submits, voids and finds; voiding twice is 91504; unknown ids are notFoundError', async () => {
    const { transaction } = await sale('20.00', 'fake-valid-nonce');
    const submitted = await gateway.transaction.submitForSettlement(transaction.id);
    expect(submitted.success).toBe(true);
    expect(submitted.transaction.status).toBe('submitted_for_settlement');

    const voided = await gateway.transaction.void(transaction.id);
    expect(voided.success).toBe(true);
    expect(voided.transaction.status).toBe('voided');

    const again = await gateway.transaction.void(transaction.id);
    expect(again.success).toBe(false);
    expect(codeOn(again.errors.for('transaction'), 'base')).toBe('91504');

    const found = await gateway.transaction.find(transaction.id);
    expect(found.status).toBe('voided');
    expect((found.statusHistory ?? []).map((event) => event.status)).toEqual([
      'authorized',
      'submitted_for_settlement',
      'voided',
    ]);

    await expect(gateway.transaction.find('nope')).rejects.toMatchObject({ type: 'notFoundError' });
    await expect(gateway.transaction.void('nope')).rejects.toMatchObject({ type: 'notFoundError' });
  });

  it('settles a partial amount and refuses more than authorized', async () => {
    const { transaction } = await sale('50.00', 'fake-valid-nonce');
    const tooMuch = await gateway.transaction.submitForSettlement(transaction.id, '60.00');
    expect(tooMuch.errors.deepErrors().map((error) => error.code)).toEqual(['91522']);
    const partial = await gateway.transaction.submitForSettlement(transaction.id, '30.00');
    expect(partial.transaction).toMatchObject({ status: 'submitted_for_settlement', amount: '30.00' });
  });

  it('cannot void a declined transaction (91504)', async () => {
    const { transaction } = await sale('2000.00', 'fake-valid-nonce');
    const result = await gateway.transaction.void(transaction.id);
    expect(result.errors.deepErrors().map((error) => error.code)).toEqual(['91504']);
  });
});

describe('apiRequestKey idempotency', () => {
  it('replays the original sale for the same key and request, refuses a different request (915232)', async () => {
    const request = { amount: '15.00', paymentMethodNonce: 'fake-valid-nonce', apiRequestKey: 'key-sale-1' };
    const first = await gateway.transaction.sale({ ...request });
    const replay = await gateway.transaction.sale({ ...request });
    expect(replay.transaction.id).toBe(first.transaction.id);
    expect(replay.transaction.status).toBe('authorized');

    const different = await gateway.transaction.sale({ ...request, amount: '16.00' });
    expect(different.success).toBe(false);
    expect(different.errors.deepErrors().map((error) => error.code)).toEqual(['915232']);
  });

  it('does not consume a tokenized nonce twice when a sale is replayed', async () => {
    const nonce = await tokenizeVisa();
    const request = { amount: '15.00', paymentMethodNonce: nonce, apiRequestKey: 'key-sale-2' };
    const first = await gateway.transaction.sale({ ...request });
    const replay = await gateway.transaction.sale({ ...request });
    expect(replay.success).toBe(true);
    expect(replay.transaction.id).toBe(first.transaction.id);
  });

  it('replays submitForSettlement and void', async () => {
    const { transaction } = await sale('25.00', 'fake-valid-nonce');
    const keyed = gateway.transaction as unknown as KeyedTransactionCalls;
    const submit = await keyed.submitForSettlement(transaction.id, undefined, { apiRequestKey: 'key-submit' });
    const submitAgain = await keyed.submitForSettlement(transaction.id, undefined, { apiRequestKey: 'key-submit' });
    expect(submit.success).toBe(true);
    expect(submitAgain.success).toBe(true);
    expect(submitAgain.transaction.status).toBe('submitted_for_settlement');

    const voided = await keyed.void(transaction.id, { apiRequestKey: 'key-void' });
    const voidAgain = await keyed.void(transaction.id, { apiRequestKey: 'key-void' });
    expect(voided.success).toBe(true);
    expect(voidAgain.success).toBe(true);
    expect(voidAgain.transaction.status).toBe('voided');

    const reusedElsewhere = await keyed.void(transaction.id, { apiRequestKey: 'key-submit' });
    expect(reusedElsewhere.errors.deepErrors().map((error) => error.code)).toEqual(['915232']);
  });
});

describe('authentication', () => {
  it('answers bad keys with 401 (authenticationError)', async () => {
    const intruder = sdkFor(sandbox, { publicKey: sandbox.publicKey, privateKey: 'wrong' });
    await expect(intruder.clientToken.generate({})).rejects.toMatchObject({
      type: 'authenticationError',
    });
    await expect(intruder.transaction.find('abc')).rejects.toMatchObject({ type: 'authenticationError' });
  });

  it('answers good keys for another merchant with 403 (authorizationError)', async () => {
    const other = sdkFor({ ...sandbox, merchantId: 'someoneelse' });
    await expect(other.clientToken.generate({})).rejects.toMatchObject({ type: 'authorizationError' });
  });
});
