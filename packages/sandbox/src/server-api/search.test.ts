import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { gatewayFor } from '../testing/sandbox.ts';

// transaction.search and subscription.search through the OFFICIAL SDK (its two-step protocol: ids, then pages),
// with the criteria a merchant's dashboard uses.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
const ids: Record<string, string> = {};

/** Everything the SDK's search stream yields. */
function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const found: T[] = [];
    stream.on('data', (item: T) => found.push(item));
    stream.on('end', () => resolve(found));
    stream.on('error', reject);
  });
}

/** @types/braintree types search builders loosely; this is the part of the SDK's builder the tests use. */
interface Node {
  is(value: unknown): void;
  in(values: unknown[]): void;
  min(value: unknown): void;
  max(value: unknown): void;
  between(min: unknown, max: unknown): void;
  endsWith(value: string): void;
  startsWith(value: string): void;
}
type Builder = Record<string, () => Node>;

async function searchTransactions(build: (search: Builder) => void): Promise<string[]> {
  const stream = gateway.transaction.search(build as unknown as braintree.TransactionSearchFn);
  return (await collect<braintree.Transaction>(stream)).map((transaction) => transaction.id);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  gateway = gatewayFor(sandbox);
  const ada = await gateway.customer.create({ firstName: 'Ada', email: 'ada@example.com' });
  const sale = async (amount: string, nonce: string, extra: Partial<braintree.TransactionRequest> = {}) =>
    (await gateway.transaction.sale({ amount, paymentMethodNonce: nonce, ...extra } as braintree.TransactionRequest)).transaction
      .id;
  ids['visa'] = await sale('10.00', 'fake-valid-visa-nonce', {
    customerId: ada.customer.id,
    options: { submitForSettlement: true },
  });
  ids['amex'] = await sale('250.00', 'fake-valid-amex-nonce');
  ids['declined'] = await sale('2000.00', 'fake-valid-mastercard-nonce');
  await gateway.testing.settle(ids['visa']);
  ids['refund'] = (await gateway.transaction.refund(ids['visa'], '4.00')).transaction.id;
  sandbox.advanceClock(60 * 60 * 1000);
  ids['later'] = await sale('75.50', 'fake-valid-visa-nonce');
});
afterAll(async () => {
  await sandbox.close();
});

describe('transaction.search', () => {
  it('finds by ids and by status, newest first', async () => {
    expect(await searchTransactions((search) => search['ids']?.().in([ids['amex'], ids['later']]))).toEqual([
      ids['later'],
      ids['amex'],
    ]);
    expect(await searchTransactions((search) => search['status']?.().in(['processor_declined']))).toEqual([ids['declined']]);
    expect(await searchTransactions((search) => search['status']?.().in(['settled', 'submitted_for_settlement']))).toEqual([
      ids['refund'],
      ids['visa'],
    ]);
  });

  it('filters by amount range, created-at range and type', async () => {
    expect(await searchTransactions((search) => search['amount']?.().between('50.00', '300.00'))).toEqual([
      ids['later'],
      ids['amex'],
    ]);
    const cut = new Date(sandbox.advanceClock(0).getTime() - 30 * 60 * 1000);
    expect(await searchTransactions((search) => search['createdAt']?.().min(cut))).toEqual([ids['later']]);
    expect(await searchTransactions((search) => search['createdAt']?.().max(cut))).not.toContain(ids['later']);
    expect(await searchTransactions((search) => search['type']?.().is('credit'))).toEqual([ids['refund']]);
  });

  it("filters by the customer's email, the card's last four and BIN, and the payment instrument type", async () => {
    expect(await searchTransactions((search) => search['customerEmail']?.().is('ADA@example.com'))).toEqual([
      ids['refund'],
      ids['visa'],
    ]);
    expect(await searchTransactions((search) => search['creditCardNumber']?.().endsWith('0005'))).toEqual([ids['amex']]);
    expect(await searchTransactions((search) => search['creditCardNumber']?.().startsWith('555555'))).toEqual([ids['declined']]);
    expect(await searchTransactions((search) => search['paymentInstrumentType']?.().is('credit_card'))).toHaveLength(5);
    expect(await searchTransactions((search) => search['paymentInstrumentType']?.().is('paypal_account'))).toEqual([]);
  });

  it('combines criteria, and pages through more results than one page holds', async () => {
    expect(
      await searchTransactions((search) => {
        search['creditCardNumber']?.().endsWith('1881');
        search['amount']?.().min('50.00');
      }),
    ).toEqual([ids['later']]);
    const many = await Promise.all(
      Array.from(
        { length: 60 },
        async () => (await gateway.transaction.sale({ amount: '1.23', paymentMethodNonce: 'fake-valid-nonce' })).transaction.id,
      ),
    );
    const found = await searchTransactions((search) => search['amount']?.().is('1.23'));
    expect(new Set(found)).toEqual(new Set(many));
  });

  it('reports a criterion it does not support as an error instead of ignoring it', async () => {
    await expect(searchTransactions((search) => search['billingPostalCode']?.().is('1000'))).rejects.toMatchObject({
      success: false,
      message: 'search criterion "billing_postal_code" is not supported or malformed',
    });
  });
});

describe('subscription.search', () => {
  it('finds by status, plan and price', async () => {
    const saved = await gateway.customer.create({ firstName: 'Grace', paymentMethodNonce: 'fake-valid-visa-nonce' });
    const token = saved.customer.creditCards?.[0]?.token ?? '';
    const active = (await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly' })).subscription;
    const canceled = (await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly', price: '30.00' }))
      .subscription;
    await gateway.subscription.cancel(canceled.id);
    const search = async (build: (search: Builder) => void) =>
      (await collect<braintree.Subscription>(gateway.subscription.search(build as never))).map((subscription) => subscription.id);
    expect(await search((criteria) => criteria['status']?.().in(['Active']))).toEqual([active.id]);
    expect(await search((criteria) => criteria['status']?.().in(['Canceled']))).toEqual([canceled.id]);
    expect(new Set(await search((criteria) => criteria['planId']?.().is('coffee-monthly')))).toEqual(
      new Set([active.id, canceled.id]),
    );
    expect(await search((criteria) => criteria['price']?.().min('25.00'))).toEqual([canceled.id]);
  });
});
