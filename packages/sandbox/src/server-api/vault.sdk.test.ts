import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, gatewayFor, tokenizeCard } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// Customers with cards, the vault (paymentMethod.*), card verification, nonces of saved cards and sales by token,
// through the OFFICIAL SDK, asserting the fields the product's server reads.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let guestToken: ClientToken;

beforeAll(async () => {
  sandbox = await startSandbox();
  gateway = gatewayFor(sandbox);
  guestToken = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
});
afterAll(async () => {
  await sandbox.close();
});

function codes(result: { errors?: braintree.ValidationErrorsCollection }): string[] {
  return result.errors?.deepErrors().map((error) => error.code) ?? [];
}

/** The fields of a failed verification on a result (`result.verification`, untyped by @types/braintree). */
function verificationOf(result: object): Record<string, unknown> | undefined {
  return (result as { verification?: Record<string, unknown> }).verification;
}

/** @types/braintree requires creditCard.customerId, which the provider does not take here (the customer is new). */
function createCustomer(
  request: Omit<braintree.CustomerCreateRequest, 'creditCard'> & { creditCard?: { options: Record<string, unknown> } },
) {
  return gateway.customer.create(request as braintree.CustomerCreateRequest);
}

async function newCustomer(): Promise<string> {
  const result = await gateway.customer.create({ firstName: 'Grace', lastName: 'Hopper' });
  return result.customer.id;
}

function saveCard(customerId: string, paymentMethodNonce: string, options: Record<string, unknown> = {}) {
  return gateway.paymentMethod.create({ customerId, paymentMethodNonce, options });
}

describe('customer.create with a card, find, update, delete', () => {
  it('saves the card of the nonce, verified, and finds it among creditCards and paymentMethods', async () => {
    const nonce = await tokenizeCard(guestToken, { number: '4111111111111111', cardholderName: 'Ada Lovelace', cvv: '123' });
    const created = await createCustomer({
      firstName: 'Ada',
      email: 'ada@example.com',
      paymentMethodNonce: nonce,
      creditCard: { options: { verifyCard: true } },
    });
    expect(created.success).toBe(true);
    const [card] = created.customer.creditCards ?? [];
    expect(card).toMatchObject({ last4: '1111', bin: '411111', cardType: 'Visa', cardholderName: 'Ada Lovelace', default: true });
    expect(card?.token).toMatch(/^[a-z0-9]+$/);
    expect(card?.verification).toMatchObject({ status: 'verified', processorResponseCode: '1000' });

    const found = await gateway.customer.find(created.customer.id);
    expect(found.creditCards?.map((saved) => saved.token)).toEqual([card?.token]);
    expect(found.paymentMethods?.map((saved) => (saved as braintree.CreditCard).token)).toEqual([card?.token]);
    expect((found.paymentMethods?.[0] as braintree.CreditCard | undefined)?.customerId).toBe(created.customer.id);
  });

  it('does not create the customer when its card fails verification (processor_declined 2000 on the result)', async () => {
    const nonce = await tokenizeCard(guestToken, { number: '4000111111111115' });
    const result = await createCustomer({
      id: 'cust_declined',
      paymentMethodNonce: nonce,
      creditCard: { options: { verifyCard: true } },
    });
    expect(result.success).toBe(false);
    expect(result.message).toBe('Do Not Honor');
    expect(verificationOf(result)).toMatchObject({
      status: 'processor_declined',
      processorResponseCode: '2000',
      processorResponseText: 'Do Not Honor',
      creditCard: { last4: '1115', bin: '400011' },
    });
    await expect(gateway.customer.find('cust_declined')).rejects.toMatchObject({ type: 'notFoundError' });
  });

  it('refuses an unknown nonce (91732) under customer.creditCard', async () => {
    const result = await gateway.customer.create({ paymentMethodNonce: 'no-such-nonce' });
    expect(result.success).toBe(false);
    expect(result.errors.for('customer')?.for('creditCard')?.on('paymentMethodNonce')).toBeTruthy();
    expect(codes(result)).toEqual(['91732']);
  });

  it('updates the contact fields and deletes the customer with its cards', async () => {
    const created = await gateway.customer.create({ firstName: 'Old', paymentMethodNonce: 'fake-valid-mastercard-nonce' });
    const token = created.customer.creditCards?.[0]?.token ?? '';
    const updated = await gateway.customer.update(created.customer.id, { firstName: 'New', email: 'new@example.com' });
    expect(updated.success).toBe(true);
    expect(updated.customer).toMatchObject({ firstName: 'New', email: 'new@example.com' });
    expect(updated.customer.creditCards?.map((card) => card.token)).toEqual([token]);
    expect(codes(await gateway.customer.update(created.customer.id, { email: 'not an email' }))).toEqual(['81604']);

    await gateway.customer.delete(created.customer.id);
    await expect(gateway.paymentMethod.find(token)).rejects.toMatchObject({ type: 'notFoundError' });
    await expect(gateway.customer.update('nobody', { firstName: 'x' })).rejects.toMatchObject({ type: 'notFoundError' });
  });
});

describe('paymentMethod.create, find, update, delete', () => {
  it('saves a nonce for a customer, uses the nonce once, finds the card by token', async () => {
    const customerId = await newCustomer();
    const nonce = await tokenizeCard(guestToken, { number: '5555555555554444', cvv: '123' });
    const created = await saveCard(customerId, nonce);
    expect(created.success).toBe(true);
    const card = created.paymentMethod as braintree.CreditCard;
    expect(card).toMatchObject({
      cardType: 'MasterCard',
      last4: '4444',
      customerId,
      default: true,
      expired: false,
      maskedNumber: '555555******4444',
    });

    const found = (await gateway.paymentMethod.find(card.token)) as braintree.CreditCard;
    expect(found).toMatchObject({ token: card.token, last4: '4444', uniqueNumberIdentifier: card.uniqueNumberIdentifier });

    const again = await saveCard(customerId, nonce);
    expect(codes(again)).toEqual(['93107']);
    expect(codes(await saveCard(customerId, 'unknown-nonce'))).toEqual(['93108']);
    expect(codes(await saveCard('nobody', 'fake-valid-nonce'))).toEqual(['93105']);
  });

  it('gives the same number the same uniqueNumberIdentifier, and refuses duplicates (81724, 81763 per customer)', async () => {
    const first = await newCustomer();
    const second = await newCustomer();
    const saved = await saveCard(first, await tokenizeCard(guestToken, { number: '4005519200000004' }));
    const other = await saveCard(second, await tokenizeCard(guestToken, { number: '4005519200000004' }));
    expect(other.success).toBe(true);
    expect((other.paymentMethod as braintree.CreditCard).uniqueNumberIdentifier).toBe(
      (saved.paymentMethod as braintree.CreditCard).uniqueNumberIdentifier,
    );
    const different = await saveCard(second, await tokenizeCard(guestToken, { number: '4012888888881881' }));
    expect((different.paymentMethod as braintree.CreditCard).uniqueNumberIdentifier).not.toBe(
      (saved.paymentMethod as braintree.CreditCard).uniqueNumberIdentifier,
    );

    const duplicate = await saveCard(second, await tokenizeCard(guestToken, { number: '4005519200000004' }), {
      failOnDuplicatePaymentMethod: true,
    });
    expect(duplicate.success).toBe(false);
    expect(duplicate.errors.for('creditCard')?.on('number')).toBeTruthy();
    expect(codes(duplicate)).toEqual(['81724']);

    const third = await newCustomer();
    const perCustomer = { failOnDuplicatePaymentMethodForCustomer: true };
    expect((await saveCard(third, await tokenizeCard(guestToken, { number: '4005519200000004' }), perCustomer)).success).toBe(
      true,
    );
    const again = await saveCard(third, await tokenizeCard(guestToken, { number: '4005519200000004' }), perCustomer);
    expect(codes(again)).toEqual(['81763']);
  });

  it.each([
    ['4000111111111115', 'Visa'],
    ['5105105105105100', 'MasterCard'],
    ['378734493671000', 'American Express'],
    ['6011000990139424', 'Discover'],
    // This sandbox's own: any other number of the declined Visa's BIN (400011).
    ['4000110000000009', 'Visa'],
  ])('fails verification of %s (%s): processor_declined 2000, nothing saved', async (number, cardType) => {
    const customerId = await newCustomer();
    const nonce = await tokenizeCard(guestToken, { number });
    const result = await saveCard(customerId, nonce, { verifyCard: true, verificationAmount: '1.00' });
    expect(result.success).toBe(false);
    expect(codes(result)).toEqual([]);
    expect(verificationOf(result)).toMatchObject({
      status: 'processor_declined',
      processorResponseCode: '2000',
      processorResponseType: 'soft_declined',
      amount: '1.00',
      creditCard: { cardType },
    });
    expect((await gateway.customer.find(customerId)).creditCards).toEqual([]);
    // Without verification the same card is saved: only verifications depend on the card.
    expect((await saveCard(customerId, await tokenizeCard(guestToken, { number }))).success).toBe(true);
  });

  it('makes a card the default on create and on update, and updates expiry and postal code', async () => {
    const customerId = await newCustomer();
    const first = (await saveCard(customerId, 'fake-valid-visa-nonce')).paymentMethod as braintree.CreditCard;
    const second = (await saveCard(customerId, 'fake-valid-amex-nonce', { makeDefault: true }))
      .paymentMethod as braintree.CreditCard;
    expect(second.default).toBe(true);
    expect(((await gateway.paymentMethod.find(first.token)) as braintree.CreditCard).default).toBe(false);

    const year = String(new Date().getUTCFullYear() + 5);
    const updated = await gateway.paymentMethod.update(first.token, {
      expirationDate: `06/${year}`,
      billingAddress: { postalCode: '1012 AB' },
      options: { makeDefault: true },
    } as braintree.PaymentMethodUpdateRequest);
    expect(updated.success).toBe(true);
    const card = (await gateway.paymentMethod.find(first.token)) as braintree.CreditCard;
    expect(card).toMatchObject({
      default: true,
      expirationMonth: '06',
      expirationYear: year,
      billingAddress: { postalCode: '1012 AB' },
    });
    expect(((await gateway.paymentMethod.find(second.token)) as braintree.CreditCard).default).toBe(false);
    const bad = await gateway.paymentMethod.update(first.token, {
      expirationDate: '13/2020',
    } as braintree.PaymentMethodUpdateRequest);
    expect(codes(bad)).toEqual(['81712']);
  });

  it('reports a saved card expired once its expiry month has ended (the sandbox clock moved on)', async () => {
    const later = await startSandbox();
    try {
      const sdk = gatewayFor(later);
      const { customer } = await sdk.customer.create({});
      const saved = await sdk.paymentMethod.create({ customerId: customer.id, paymentMethodNonce: 'fake-valid-visa-nonce' });
      const card = saved.paymentMethod as braintree.CreditCard;
      expect(card.expired).toBe(false);
      // Fake nonces' cards expire in December, three years on: four years later they have.
      later.advanceClock(4 * 366 * 24 * 60 * 60 * 1000);
      expect(((await sdk.paymentMethod.find(card.token)) as braintree.CreditCard).expired).toBe(true);
    } finally {
      await later.close();
    }
  });

  it('deletes a card (then not found); the next card becomes the default', async () => {
    const customerId = await newCustomer();
    const first = (await saveCard(customerId, 'fake-valid-visa-nonce')).paymentMethod as braintree.CreditCard;
    const second = (await saveCard(customerId, 'fake-valid-discover-nonce')).paymentMethod as braintree.CreditCard;
    await gateway.paymentMethod.delete(first.token);
    await expect(gateway.paymentMethod.find(first.token)).rejects.toMatchObject({ type: 'notFoundError' });
    await expect(gateway.paymentMethod.delete(first.token)).rejects.toMatchObject({ type: 'notFoundError' });
    expect(((await gateway.paymentMethod.find(second.token)) as braintree.CreditCard).default).toBe(true);
  });
});

describe('nonces of saved cards and sales', () => {
  it('paymentMethodNonce.create gives a single-use nonce; a sale with it charges the saved card', async () => {
    const customerId = await newCustomer();
    const card = (await saveCard(customerId, 'fake-valid-visa-nonce')).paymentMethod as braintree.CreditCard;
    const created = await gateway.paymentMethodNonce.create(card.token);
    expect(created.success).toBe(true);
    expect(created.paymentMethodNonce).toMatchObject({ type: 'CreditCard', details: { lastFour: '1881', cardType: 'Visa' } });
    const { nonce } = created.paymentMethodNonce;

    const sale = await gateway.transaction.sale({ amount: '12.00', paymentMethodNonce: nonce });
    expect(sale.success).toBe(true);
    expect(sale.transaction).toMatchObject({ customer: { id: customerId }, creditCard: { token: card.token, last4: '1881' } });
    const again = await gateway.transaction.sale({ amount: '12.00', paymentMethodNonce: nonce });
    expect(codes(again)).toEqual(['91564']);
    await expect(gateway.paymentMethodNonce.create('no_such_token')).rejects.toMatchObject({ type: 'notFoundError' });
  });

  it('paymentMethodNonce.find describes a nonce (bin, last four, expiry) without using it, and a used one as consumed', async () => {
    const customerId = await newCustomer();
    const card = (await saveCard(customerId, 'fake-valid-visa-nonce')).paymentMethod as braintree.CreditCard;
    const { nonce } = (await gateway.paymentMethodNonce.create(card.token)).paymentMethodNonce;
    const found = await gateway.paymentMethodNonce.find(nonce);
    expect(found).toMatchObject({
      nonce,
      consumed: false,
      details: { bin: card.bin, lastFour: '1881', cardType: 'Visa', expirationMonth: card.expirationMonth },
    });
    expect((await gateway.transaction.sale({ amount: '3.00', paymentMethodNonce: nonce })).success).toBe(true);
    expect(await gateway.paymentMethodNonce.find(nonce)).toMatchObject({ consumed: true });
    expect(await gateway.paymentMethodNonce.find('fake-valid-mastercard-nonce')).toMatchObject({
      details: { cardType: 'MasterCard' },
    });
    await expect(gateway.paymentMethodNonce.find('no-such-nonce')).rejects.toMatchObject({ type: 'notFoundError' });
  });

  // As the provider: its NonceDetails have no uniqueNumberIdentifier, a transaction's creditCard has one. So Kassa's
  // card rules, checked before the sale, cannot key on it (packages/server/README.md, "Velocity rules").
  it('names a number uniqueNumberIdentifier only in a sale, the same whatever the expiry, declined or approved', async () => {
    const identifiers = new Set<string | undefined>();
    const tries = [
      ['01/2031', '10.00'],
      ['02/2032', '2000.00'],
      ['03/2033', '11.00'],
    ] as const;
    for (const [expirationDate, amount] of tries) {
      const nonce = await tokenizeCard(guestToken, { number: '4111111111111111', expirationDate });
      const found = await gateway.paymentMethodNonce.find(nonce);
      expect(found.details).toMatchObject({ bin: '411111', lastFour: '1111', expirationMonth: expirationDate.slice(0, 2) });
      expect(found.details).not.toHaveProperty('uniqueNumberIdentifier');
      const sale = await gateway.transaction.sale({ amount, paymentMethodNonce: nonce });
      expect(sale.transaction.status).toBe(amount === '2000.00' ? 'processor_declined' : 'authorized');
      identifiers.add(sale.transaction.creditCard?.uniqueNumberIdentifier);
    }
    expect([...identifiers]).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
  });

  it('sells by paymentMethodToken (with or without its customerId); another customer is 91516, unknown 91518', async () => {
    const customerId = await newCustomer();
    const card = (await saveCard(customerId, 'fake-valid-visa-nonce')).paymentMethod as braintree.CreditCard;
    const byToken = await gateway.transaction.sale({ amount: '5.00', paymentMethodToken: card.token });
    expect(byToken.transaction).toMatchObject({
      status: 'authorized',
      customer: { id: customerId },
      creditCard: { token: card.token },
    });
    const withCustomer = await gateway.transaction.sale({ amount: '5.00', paymentMethodToken: card.token, customerId });
    expect(withCustomer.success).toBe(true);
    const stranger = await newCustomer();
    expect(
      codes(await gateway.transaction.sale({ amount: '5.00', paymentMethodToken: card.token, customerId: stranger })),
    ).toEqual(['91516']);
    expect(codes(await gateway.transaction.sale({ amount: '5.00', paymentMethodToken: 'nope' }))).toEqual(['91518']);
  });

  it('storeInVaultOnSuccess saves the card for the customer, or for a new customer', async () => {
    const customerId = await newCustomer();
    const stored = await gateway.transaction.sale({
      amount: '9.00',
      paymentMethodNonce: await tokenizeCard(guestToken, { number: '4111111111111111' }),
      customerId,
      options: { storeInVaultOnSuccess: true },
    });
    expect(stored.success).toBe(true);
    const token = stored.transaction.creditCard?.token ?? '';
    expect(token).toMatch(/^[a-z0-9]+$/);
    expect(stored.transaction.customer).toMatchObject({ id: customerId });
    expect((await gateway.customer.find(customerId)).creditCards?.map((card) => card.token)).toEqual([token]);

    const forNew = await gateway.transaction.sale({
      amount: '9.00',
      paymentMethodNonce: 'fake-valid-nonce',
      options: { storeInVaultOnSuccess: true },
    });
    const newCustomerId = forNew.transaction.customer?.id ?? '';
    expect(newCustomerId).not.toBe('');
    expect((await gateway.customer.find(newCustomerId)).creditCards?.[0]?.token).toBe(forNew.transaction.creditCard?.token);

    const declined = await gateway.transaction.sale({
      amount: '2000.00',
      paymentMethodNonce: 'fake-valid-nonce',
      customerId,
      options: { storeInVaultOnSuccess: true },
    });
    expect(declined.transaction.creditCard?.token).toBeNull();
    expect((await gateway.customer.find(customerId)).creditCards).toHaveLength(1);
  });
});

describe('AVS/CVV rules (a sandbox setting)', () => {
  it('rejects CVV 200 as cvv and postal code 20000 as avs when the rules are on, and not when they are off', async () => {
    const strict = await startSandbox({ cardRules: { cvv: true, avs: true } });
    try {
      const sdk = gatewayFor(strict);
      const token = decodeClientToken((await sdk.clientToken.generate({})).clientToken);
      const { customer } = await sdk.customer.create({});
      const verify = { verifyCard: true };
      const cvv = await sdk.paymentMethod.create({
        customerId: customer.id,
        paymentMethodNonce: await tokenizeCard(token, { number: '4111111111111111', cvv: '200' }),
        options: verify,
      });
      expect(verificationOf(cvv)).toMatchObject({
        status: 'gateway_rejected',
        gatewayRejectionReason: 'cvv',
        cvvResponseCode: 'N',
      });
      const avs = await sdk.paymentMethod.create({
        customerId: customer.id,
        paymentMethodNonce: await tokenizeCard(token, { number: '4111111111111111', billingAddress: { postalCode: '20000' } }),
        options: verify,
      });
      expect(verificationOf(avs)).toMatchObject({
        status: 'gateway_rejected',
        gatewayRejectionReason: 'avs',
        avsPostalCodeResponseCode: 'N',
      });
      const sale = await sdk.transaction.sale({
        amount: '10.00',
        paymentMethodNonce: await tokenizeCard(token, { number: '4111111111111111', cvv: '200' }),
      });
      expect(sale.transaction).toMatchObject({ status: 'gateway_rejected', gatewayRejectionReason: 'cvv', cvvResponseCode: 'N' });
    } finally {
      await strict.close();
    }
    const lenient = await saveCard(
      await newCustomer(),
      await tokenizeCard(guestToken, { number: '4111111111111111', cvv: '200' }),
      {
        verifyCard: true,
      },
    );
    expect(lenient.success).toBe(true);
  });
});
