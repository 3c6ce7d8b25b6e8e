import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStoreError, startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, gatewayFor } from '../testing/sandbox.ts';

// A merchant stops and restarts the sandbox with a data file: what the product's database refers to (customer and
// transaction ids) must still be there, through the OFFICIAL SDK.

const CREDENTIALS = { merchantId: 'kassa_shop', publicKey: 'pub1', privateKey: 'private1' };
// Kept out of the data file's folder, as a merchant would: it keeps card identifiers across restarts.
const CARD_IDENTIFIER_SECRET = 'test-only card identifier secret, 32+ characters';

let folder: string;
let dataFile: string;
const started: Sandbox[] = [];
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-restart-'));
  dataFile = join(folder, 'data', 'sandbox.json');
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
  rmSync(folder, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ dataFile, ...CREDENTIALS, cardIdentifierSecret: CARD_IDENTIFIER_SECRET, ...options });
  started.push(sandbox);
  return sandbox;
}

async function stop(sandbox: Sandbox): Promise<void> {
  started.splice(started.indexOf(sandbox), 1);
  await sandbox.close();
}

async function tokenize(fingerprint: string, clientApiUrl: string): Promise<{ nonce: string }> {
  const response = await fetch(`${clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: fingerprint,
      creditCard: { number: '4111 1111 1111 1111', expirationDate: `12/${new Date().getUTCFullYear() + 2}`, cvv: '123' },
    }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { creditCards: Array<{ nonce: string }> };
  const [card] = body.creditCards;
  if (!card) throw new Error('no card');
  return card;
}

function codes(result: braintree.ValidatedResponse<braintree.Transaction>): string[] {
  return result.errors?.deepErrors().map((error) => error.code) ?? [];
}

describe('restart with a data file', () => {
  it('still knows customers, transactions and consumed nonces; client tokens keep working', async () => {
    const first = await start();
    expect(first.dataFile).toBe(dataFile);
    const sdk = gatewayFor(first);
    const customer = await sdk.customer.create({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    expect(customer.success).toBe(true);
    const sale = await sdk.transaction.sale({
      amount: '12.34',
      paymentMethodNonce: 'fake-valid-visa-nonce',
      customerId: customer.customer.id,
      orderId: 'order-1',
    });
    expect(sale.success).toBe(true);
    const oldToken = decodeClientToken((await sdk.clientToken.generate({})).clientToken);
    const card = await tokenize(oldToken.authorizationFingerprint, oldToken.clientApiUrl);
    const charged = await sdk.transaction.sale({ amount: '5.00', paymentMethodNonce: card.nonce });
    expect(charged.success).toBe(true);
    const keyed = await sdk.transaction.sale({
      amount: '7.00',
      paymentMethodNonce: 'fake-valid-nonce',
      apiRequestKey: 'order-2-attempt-1',
    } as braintree.TransactionRequest);
    await stop(first);

    const second = await start();
    expect(second.port).not.toBe(first.port);
    const again = gatewayFor(second);
    const found = await again.customer.find(customer.customer.id);
    expect([found.firstName, found.lastName, found.email]).toEqual(['Ada', 'Lovelace', 'ada@example.com']);
    expect(String(found.createdAt)).toBe(String(customer.customer.createdAt));
    const transaction = await again.transaction.find(sale.transaction.id);
    expect(transaction).toMatchObject({
      id: sale.transaction.id,
      status: 'authorized',
      amount: '12.34',
      orderId: 'order-1',
      customer: { id: customer.customer.id },
      createdAt: sale.transaction.createdAt,
      statusHistory: sale.transaction.statusHistory,
      creditCard: { last4: '1881' },
    });

    // A customer client token from the new process.
    const token = await again.clientToken.generate({ customerId: customer.customer.id });
    expect(token.success).toBe(true);
    expect(decodeClientToken(token.clientToken).clientApiUrl).toBe(`${second.origin}/merchants/kassa_shop/client_api`);

    // The nonce consumed before the restart stays consumed (91564).
    const reused = await again.transaction.sale({ amount: '5.00', paymentMethodNonce: card.nonce });
    expect(reused.success).toBe(false);
    expect(codes(reused)).toEqual(['91564']);

    // apiRequestKey: the same request replays the original sale, another one conflicts.
    const replay = await again.transaction.sale({
      amount: '7.00',
      paymentMethodNonce: 'fake-valid-nonce',
      apiRequestKey: 'order-2-attempt-1',
    } as braintree.TransactionRequest);
    expect(replay.transaction.id).toBe(keyed.transaction.id);

    // A fingerprint handed out before the restart is still accepted (same credentials), on the new origin.
    const newClientApi = `${second.origin}/merchants/kassa_shop/client_api`;
    const configuration = await fetch(
      `${newClientApi}/v1/configuration?authorizationFingerprint=${encodeURIComponent(oldToken.authorizationFingerprint)}`,
    );
    expect(configuration.status).toBe(200);
    // And the same card keeps its unique number identifier (duplicate detection survives the restart: the secret is
    // the same; without one it would not, see store/card-recovery.test.ts).
    const sameCard = await tokenize(oldToken.authorizationFingerprint, newClientApi);
    const before = await again.transaction.find(charged.transaction.id);
    const after = await again.transaction.sale({ amount: '1.00', paymentMethodNonce: sameCard.nonce });
    expect(after.transaction.creditCard?.uniqueNumberIdentifier).toBeDefined();
    expect(after.transaction.creditCard?.uniqueNumberIdentifier).toBe(before.creditCard?.uniqueNumberIdentifier);

    // Changes after the restart are kept too.
    const settled = await again.transaction.submitForSettlement(sale.transaction.id);
    expect(settled.transaction.status).toBe('submitted_for_settlement');
    await stop(second);
    const third = await start();
    expect((await gatewayFor(third).transaction.find(sale.transaction.id)).status).toBe('submitted_for_settlement');
    expect(statSync(dataFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(dataFile, 'utf8')).not.toContain('4111111111111111');
  });

  it('still knows saved cards (default, verification, duplicates), subscriptions and their periods', async () => {
    const first = await start();
    const sdk = gatewayFor(first);
    const guest = decodeClientToken((await sdk.clientToken.generate({})).clientToken);
    const created = await sdk.customer.create({
      id: 'shopper_1',
      paymentMethodNonce: (await tokenize(guest.authorizationFingerprint, guest.clientApiUrl)).nonce,
    });
    const card = created.customer.creditCards?.[0];
    const other = await sdk.paymentMethod.create({
      customerId: 'shopper_1',
      paymentMethodNonce: 'fake-valid-amex-nonce',
      options: { makeDefault: true, verifyCard: true },
    });
    const amexToken = (other.paymentMethod as braintree.CreditCard).token;
    const { subscription } = await sdk.subscription.create({ paymentMethodToken: card?.token ?? '', planId: 'coffee-monthly' });
    await stop(first);

    const second = await start();
    const again = gatewayFor(second);
    const found = await again.customer.find('shopper_1');
    expect(found.creditCards?.map((saved) => [saved.token, saved.last4, saved.default])).toEqual([
      [card?.token, '1111', false],
      [amexToken, '0005', true],
    ]);
    const amex = (await again.paymentMethod.find(amexToken)) as braintree.CreditCard;
    expect(amex.verification).toMatchObject({ status: 'verified' });
    const visa = (await again.paymentMethod.find(card?.token ?? '')) as braintree.CreditCard & {
      subscriptions: braintree.Subscription[];
    };
    expect(visa.uniqueNumberIdentifier).toBe(card?.uniqueNumberIdentifier);
    expect(visa.subscriptions.map((saved) => [saved.id, saved.status])).toEqual([[subscription.id, 'Active']]);
    expect(await again.subscription.find(subscription.id)).toMatchObject({
      status: 'Active',
      currentBillingCycle: 1,
      nextBillingDate: subscription.nextBillingDate,
      billingPeriodEndDate: subscription.billingPeriodEndDate,
      transactions: [{ id: subscription.transactions?.[0]?.id }],
    });

    // The same number after the restart is a duplicate (the card identifier secret is the same).
    const token = decodeClientToken((await again.clientToken.generate({})).clientToken);
    const duplicate = await again.paymentMethod.create({
      customerId: 'shopper_1',
      paymentMethodNonce: (await tokenize(token.authorizationFingerprint, token.clientApiUrl)).nonce,
      options: { failOnDuplicatePaymentMethod: true },
    });
    expect(duplicate.errors?.deepErrors().map((error) => error.code)).toEqual(['81724']);
    // Sales by token, nonces of saved cards and cancelation carry on.
    expect((await again.transaction.sale({ amount: '2.00', paymentMethodToken: amexToken })).transaction.customer).toMatchObject({
      id: 'shopper_1',
    });
    const { paymentMethodNonce } = await again.paymentMethodNonce.create(amexToken);
    expect((await again.transaction.sale({ amount: '2.00', paymentMethodNonce: paymentMethodNonce.nonce })).success).toBe(true);
    expect((await again.subscription.cancel(subscription.id)).subscription.status).toBe('Canceled');
    await stop(second);
    const third = await start();
    expect((await gatewayFor(third).subscription.find(subscription.id)).status).toBe('Canceled');
    expect(readFileSync(dataFile, 'utf8')).not.toContain('4111111111111111');
  });

  it('keeps the merchant id of the file when none is given, and refuses another one', async () => {
    const first = await start();
    await stop(first);
    const adopted = await startSandbox({ dataFile });
    started.push(adopted);
    expect(adopted.merchantId).toBe('kassa_shop');
    await stop(adopted);
    await expect(startSandbox({ dataFile, merchantId: 'other_shop' })).rejects.toThrow(
      `sandbox data file ${dataFile} holds the state of merchant "kassa_shop", not "other_shop"`,
    );
  });

  it('refuses to start on a corrupt data file, naming it, and leaves the file alone', async () => {
    const corrupt = join(folder, 'corrupt.json');
    writeFileSync(corrupt, '{"format":"kassa-sandbox-state","version":1,"collections":{');
    await expect(startSandbox({ dataFile: corrupt })).rejects.toThrow(FileStoreError);
    await expect(startSandbox({ dataFile: corrupt })).rejects.toThrow(corrupt);
    expect(readFileSync(corrupt, 'utf8')).toBe('{"format":"kassa-sandbox-state","version":1,"collections":{');
  });

  it('keeps nothing without a data file', async () => {
    const first = await startSandbox({ ...CREDENTIALS });
    const customer = await gatewayFor(first).customer.create({ id: 'memory_only' });
    expect(customer.success).toBe(true);
    expect(first.dataFile).toBeNull();
    await first.close();
    const second = await startSandbox({ ...CREDENTIALS });
    started.push(second);
    await expect(gatewayFor(second).customer.find('memory_only')).rejects.toThrow();
  });
});
