import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { injectSandboxFault } from '../../../sandbox/src/testing/faults-client.ts';
import { DROP_NEXT_CARD_SAVE, sandboxPerFile } from '../testing/sandbox.ts';

interface Method {
  id: string;
  type: string;
  email: string | null;
  username: string | null;
  brand: string;
  lastFour: string;
  expirationMonth: string;
  expirationYear: string;
  default: boolean;
  hasSubscription: boolean;
}
interface Session {
  account: { id: string };
}
interface Subscription {
  id: string;
  planId: string;
  planName: string;
  status: string;
  price: { amount: number; currency: string };
  paymentMethod: { id: string; lastFour: string };
}

// The gateway's test nonces (gateway.md): each stands for one test card, so the same nonce twice is the same card.
const MASTERCARD = 'fake-valid-mastercard-nonce';
const AMEX = 'fake-valid-amex-nonce';
const FAILS_VERIFICATION = 'fake-processor-declined-visa-nonce';

let keys = 0;
const key = (): Record<string, string> => ({ 'idempotency-key': `k-${++keys}` });

const sandbox = sandboxPerFile({ env: { SANDBOX_TEST_CONTROLS: '1' } });

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'saved payment methods and subscriptions on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let app: FastifyInstance;
    let db: Db;

    beforeAll(async () => {
      // Its fault injection loses a card save's answer (SANDBOX_TEST_CONTROLS).
      await engine.setup();
    });
    afterAll(async () => {
      await engine.teardown();
    });
    appPerTest(engine, async (opened) => {
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
      db = opened.handle.db;
      return app;
    });

    async function shopper(name: string): Promise<TestClient> {
      const client = new TestClient(app);
      const response = await client.signUp({
        email: `${name}-${++keys}@example.com`,
        password: `${name} password`,
        name,
      });
      expect(response.statusCode).toBe(201);
      return client;
    }

    async function addCard(client: TestClient, nonce: string, extra: Record<string, unknown> = {}) {
      return client.post('/api/payment-methods', { nonce, ...extra }, key());
    }

    async function methods(client: TestClient): Promise<Method[]> {
      const response = await client.get('/api/payment-methods');
      expect(response.statusCode).toBe(200);
      return response.json<{ paymentMethods: Method[] }>().paymentMethods;
    }

    it("lists, adds, makes default and deletes a shopper's cards; a duplicate and a failed verification are refused with their messages", async () => {
      const bea = await shopper('Bea');
      expect(await methods(bea)).toEqual([]);

      const first = await addCard(bea, MASTERCARD);
      expect(first.statusCode).toBe(201);
      const mastercard = first.json<{ paymentMethod: Method }>().paymentMethod;
      expect(mastercard).toMatchObject({ brand: 'MasterCard', lastFour: '4444', default: true, hasSubscription: false });
      expect(mastercard.expirationYear).toMatch(/^\d{4}$/);

      const second = await addCard(bea, AMEX);
      expect(second.statusCode).toBe(201);
      const amex = second.json<{ paymentMethod: Method }>().paymentMethod;
      expect(amex.default).toBe(false);
      expect((await methods(bea)).map((m) => [m.lastFour, m.default])).toEqual([
        ['4444', true],
        ['0005', false],
      ]);

      const duplicate = await addCard(bea, MASTERCARD);
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.headers['content-type']).toContain('application/problem+json');
      expect(duplicate.json()).toMatchObject({
        code: 'payment_method_duplicate',
        title: 'This credit card already exists as a saved payment method.',
      });

      const failed = await addCard(bea, FAILS_VERIFICATION);
      expect(failed.statusCode).toBe(422);
      expect(failed.json()).toMatchObject({
        code: 'card_verification_failed',
        title: 'Credit card verification failed.',
        verification: { status: 'processor_declined', processorResponseCode: '2000' },
      });
      expect(await methods(bea)).toHaveLength(2);

      const made = await bea.post(`/api/payment-methods/${amex.id}/default`, undefined, key());
      expect(made.statusCode).toBe(200);
      expect(made.json()).toMatchObject({ paymentMethod: { id: amex.id, default: true } });
      expect((await methods(bea)).map((m) => [m.lastFour, m.default])).toEqual([
        ['0005', true],
        ['4444', false],
      ]);

      const deleteKey = key();
      const deleted = await bea.request('DELETE', `/api/payment-methods/${mastercard.id}`, undefined, deleteKey);
      expect(deleted.statusCode).toBe(204);
      // The same key again replays the deletion's answer instead of a 404.
      const replayed = await bea.request('DELETE', `/api/payment-methods/${mastercard.id}`, undefined, deleteKey);
      expect(replayed.statusCode, replayed.body).toBe(204);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect((await methods(bea)).map((m) => m.id)).toEqual([amex.id]);
      expect((await bea.request('DELETE', `/api/payment-methods/${mastercard.id}`, undefined, key())).json()).toMatchObject({
        status: 404,
        code: 'payment_method_not_found',
      });
    });

    it("saves a shopper's wallets (PayPal billing agreement, Venmo, Apple Pay, Google Pay) with what names them, pays an order with a saved one, deletes one; a one-time PayPal payment is refused", async () => {
      const bea = await shopper('Bea');
      for (const nonce of [
        'fake-paypal-billing-agreement-nonce',
        'fake-venmo-account-nonce',
        'fake-apple-pay-visa-nonce',
        'fake-android-pay-mastercard-nonce',
      ]) {
        expect((await addCard(bea, nonce)).statusCode).toBe(201);
      }
      // The default first, then by kind as the gateway's customer lists them (cards, Apple Pay, Google Pay, PayPal, Venmo).
      const saved = await methods(bea);
      expect(
        saved.map(({ type, email, username, brand, lastFour, default: isDefault }) => ({
          type,
          email,
          username,
          brand,
          lastFour,
          isDefault,
        })),
      ).toEqual([
        { type: 'PayPalAccount', email: 'shopper@paypal.example', username: null, brand: '', lastFour: '', isDefault: true },
        { type: 'ApplePayCard', email: null, username: null, brand: 'Visa', lastFour: '1111', isDefault: false },
        { type: 'AndroidPayCard', email: null, username: null, brand: 'MasterCard', lastFour: '4444', isDefault: false },
        { type: 'VenmoAccount', email: null, username: 'venmojoe', brand: '', lastFour: '', isDefault: false },
      ]);

      const oneTime = await addCard(bea, 'fake-paypal-one-time-nonce');
      expect(oneTime.statusCode).toBe(422);
      expect(oneTime.json()).toMatchObject({ code: 'payment_method_invalid' });

      // Paying with the saved PayPal account: a nonce for it, then the payment route as for any nonce.
      const paypal = saved[0] as Method;
      const nonce = (await bea.post(`/api/payment-methods/${paypal.id}/nonces`, undefined, key())).json<{ nonce: string }>();
      const order = (await bea.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
        order: { id: string };
      }>().order;
      const paid = await bea.post(
        `/api/orders/${order.id}/payments`,
        { nonce: nonce.nonce, botcheck: await bea.botcheckToken() },
        key(),
      );
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.json()).toMatchObject({ payment: { status: 'succeeded', card: { brand: 'PayPal' } } });

      const cal = await shopper('Cal');
      expect((await cal.request('DELETE', `/api/payment-methods/${paypal.id}`, undefined, key())).statusCode).toBe(404);
      expect((await bea.request('DELETE', `/api/payment-methods/${paypal.id}`, undefined, key())).statusCode).toBe(204);
      expect((await methods(bea)).map((m) => [m.type, m.default])).toEqual([
        ['VenmoAccount', true],
        ['ApplePayCard', false],
        ['AndroidPayCard', false],
      ]);
    });

    it('refuses a wallet saved twice (the same PayPal email, Venmo user, Apple Pay or Google Pay card) with the one saved before; asked to be the default, that one becomes it; a subscription with it charges that one', async () => {
      // Two shoppers: the card-save rules allow 5 saves an account an hour.
      const dee = await shopper('Dee');
      const first = [];
      for (const nonce of ['fake-paypal-billing-agreement-nonce', 'fake-apple-pay-visa-nonce']) {
        first.push((await addCard(dee, nonce)).json<{ paymentMethod: Method }>().paymentMethod);
      }
      for (const [index, nonce] of ['fake-paypal-billing-agreement-nonce', 'fake-apple-pay-visa-nonce'].entries()) {
        const again = await addCard(dee, nonce);
        expect(again.statusCode, nonce).toBe(409);
        expect(again.json()).toMatchObject({ code: 'wallet_already_saved', paymentMethod: { id: first[index]?.id } });
      }
      expect((await methods(dee)).map((m) => m.id)).toEqual(first.map((m) => m.id));
      // Subscribing with the same PayPal account again: the subscription charges the one saved before.
      const subscribed = await dee.post(
        '/api/subscriptions',
        { planId: 'coffee-monthly', nonce: 'fake-paypal-billing-agreement-nonce', botcheck: await dee.botcheckToken('payment') },
        key(),
      );
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      expect(subscribed.json()).toMatchObject({ subscription: { paymentMethod: { id: first[0]?.id } } });
      expect((await methods(dee)).map((m) => [m.id, m.hasSubscription])).toEqual([
        [first[0]?.id, true],
        [first[1]?.id, false],
      ]);

      const eve = await shopper('Eve');
      const venmo = (await addCard(eve, 'fake-venmo-account-nonce')).json<{ paymentMethod: Method }>().paymentMethod;
      const googlePay = (await addCard(eve, 'fake-android-pay-mastercard-nonce')).json<{ paymentMethod: Method }>().paymentMethod;
      expect((await addCard(eve, 'fake-android-pay-mastercard-nonce')).json()).toMatchObject({
        code: 'wallet_already_saved',
        paymentMethod: { id: googlePay.id, default: false },
      });
      const again = await addCard(eve, 'fake-venmo-account-nonce', { makeDefault: true });
      expect(again.json()).toMatchObject({ code: 'wallet_already_saved', paymentMethod: { id: venmo.id, default: true } });
      expect((await methods(eve)).map((m) => [m.id, m.default])).toEqual([
        [venmo.id, true],
        [googlePay.id, false],
      ]);
    });

    it("keeps every shopper to their own cards: another shopper's card is 404 for default, delete, nonce and subscribe; guests are 401", async () => {
      const bea = await shopper('Bea');
      const cal = await shopper('Cal');
      const beas = (await addCard(bea, MASTERCARD)).json<{ paymentMethod: Method }>().paymentMethod;

      expect(await methods(cal)).toEqual([]);
      for (const response of [
        await cal.post(`/api/payment-methods/${beas.id}/default`, undefined, key()),
        await cal.request('DELETE', `/api/payment-methods/${beas.id}`, undefined, key()),
        await cal.post(`/api/payment-methods/${beas.id}/nonces`, undefined, key()),
        await cal.post('/api/subscriptions', { planId: 'coffee-monthly', paymentMethodId: beas.id }, key()),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'payment_method_not_found' });
      }
      expect((await methods(bea)).map((m) => m.id)).toEqual([beas.id]);

      const guest = new TestClient(app);
      expect((await guest.get('/api/payment-methods')).json()).toMatchObject({ status: 401, code: 'not_signed_in' });
      expect((await guest.post('/api/payment-methods', { nonce: AMEX }, key())).json()).toMatchObject({
        status: 401,
        code: 'not_signed_in',
      });
      // A guest with a session (an order in the cart) is no shopper either.
      await guest.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      expect((await guest.post('/api/payment-methods', { nonce: AMEX }, key())).json()).toMatchObject({
        status: 401,
        code: 'not_signed_in',
      });
      // A token that is not an id never reaches the gateway's URL paths.
      expect((await bea.request('DELETE', '/api/payment-methods/..%2Fcustomers', undefined, key())).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
    });

    it('keeps every shopper to their own subscriptions and orders: another shopper lists none, and cannot cancel one', async () => {
      const bea = await shopper('Bea');
      const cal = await shopper('Cal');
      const card = (await addCard(bea, MASTERCARD)).json<{ paymentMethod: Method }>().paymentMethod;
      const subscription = (
        await bea.post('/api/subscriptions', { planId: 'coffee-monthly', paymentMethodId: card.id }, key())
      ).json<{
        subscription: Subscription;
      }>().subscription;
      const order = (await bea.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 2 }] })).json<{
        order: { id: string };
      }>().order;

      expect((await cal.get('/api/subscriptions')).json()).toEqual({ subscriptions: [] });
      expect((await cal.get('/api/orders')).json()).toEqual({ orders: [] });
      const refused = await cal.post(`/api/subscriptions/${subscription.id}/cancel`, undefined, key());
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: 'subscription_not_found' });

      expect((await bea.get('/api/subscriptions')).json<{ subscriptions: Subscription[] }>().subscriptions).toEqual([
        expect.objectContaining({
          id: subscription.id,
          status: 'Active',
          paymentMethod: expect.objectContaining({ id: card.id }),
        }),
      ]);
      expect((await bea.get('/api/orders')).json<{ orders: Array<{ id: string; items: unknown[] }> }>().orders).toEqual([
        expect.objectContaining({ id: order.id, items: [expect.objectContaining({ productId: 'prd_mug', quantity: 2 })] }),
      ]);
      const guest = new TestClient(app);
      expect((await guest.get('/api/orders')).json()).toMatchObject({ status: 401, code: 'not_signed_in' });
      expect((await guest.get('/api/subscriptions')).json()).toMatchObject({ status: 401, code: 'not_signed_in' });
    });

    it('issues a client token for adding a card outside an order; the card it tokenizes is saved, verified, for the shopper', async () => {
      const bea = await shopper('Bea');
      const issued = await bea.post('/api/payment-methods/client-token', {});
      expect(issued.statusCode).toBe(200);
      const { clientToken, checkout } = issued.json<{ clientToken: string; checkout: { cardholderName: string } }>();
      expect(checkout).toEqual({ cardholderName: 'optional' });

      // What the checkout's card frame does with it: the card goes to the gateway's client API, never to our server.
      const token = JSON.parse(Buffer.from(clientToken, 'base64').toString()) as {
        authorizationFingerprint: string;
        clientApiUrl: string;
      };
      const tokenized = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          authorizationFingerprint: token.authorizationFingerprint,
          creditCard: {
            number: '4111111111111111',
            expirationDate: '12/2031',
            cvv: '123',
            billingAddress: { postalCode: '10115' },
          },
        }),
      });
      expect(tokenized.status).toBe(201);
      const nonce = ((await tokenized.json()) as { creditCards: Array<{ nonce: string }> }).creditCards[0]?.nonce;
      // Not bound to a customer: the checkout shows its card form alone, and the gateway keeps nothing until we save it.
      const listed = await fetch(
        `${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
      );
      expect(await listed.json()).toEqual({ paymentMethods: [] });
      expect(await methods(bea)).toEqual([]);

      const saved = await addCard(bea, nonce ?? '', { makeDefault: true });
      expect(saved.statusCode).toBe(201);
      expect(await methods(bea)).toEqual([
        expect.objectContaining({ brand: 'Visa', lastFour: '1111', expirationYear: '2031', default: true }),
      ]);

      const guest = new TestClient(app);
      expect((await guest.post('/api/payment-methods/client-token', {})).json()).toMatchObject({
        status: 401,
        code: 'not_signed_in',
      });
    });

    it("gives a signed-in shopper's checkout a client token bound to no customer: the gateway's client API saves no card with it and lists none; the server saves, creating again a customer the gateway forgot", async () => {
      const bea = await shopper('Bea');
      // A card saved through the server first: a token bound to Bea's customer would list it.
      expect((await addCard(bea, AMEX)).statusCode).toBe(201);
      const made = await bea.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      const orderId = made.json<{ order: { id: string } }>().order.id;
      const session = (await bea.post(`/api/orders/${orderId}/checkout-session`)).json<{ clientToken: string }>();
      const token = JSON.parse(Buffer.from(session.clientToken, 'base64').toString()) as {
        authorizationFingerprint: string;
        clientApiUrl: string;
      };
      // What a card tester holding the token would do: save (verify) a card at the gateway, past our bot-check and rules.
      const saved = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          authorizationFingerprint: token.authorizationFingerprint,
          creditCard: { number: '4111111111111111', expirationDate: '12/2031', cvv: '123', options: { validate: true } },
        }),
      });
      expect(saved.status).toBe(403);
      const listed = await fetch(
        `${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
      );
      expect(await listed.json()).toEqual({ paymentMethods: [] });
      // Only the card the server saved: the client API's save kept nothing.
      expect(await methods(bea)).toHaveLength(1);

      // A customer the gateway no longer knows (a sandbox started afresh, a customer deleted there) is made again.
      const beas = db.selectFrom('accounts').where('id', '=', (await bea.get('/api/session')).json<Session>().account.id);
      await db
        .updateTable('accounts')
        .set({ gateway_customer_id: 'forgotten_by_the_gateway' })
        .where('id', 'in', beas.select('id'))
        .execute();
      expect((await addCard(bea, MASTERCARD)).statusCode).toBe(201);
      const renewed = await beas.select('gateway_customer_id').executeTakeFirstOrThrow();
      expect(renewed.gateway_customer_id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(renewed.gateway_customer_id).not.toBe('forgotten_by_the_gateway');
      expect(await methods(bea)).toEqual([expect.objectContaining({ brand: 'MasterCard', lastFour: '4444' })]);
    });

    it('subscribes with a saved card, locks that card against deletion on the server, and unlocks it once canceled', async () => {
      const bea = await shopper('Bea');
      const card = (await addCard(bea, MASTERCARD)).json<{ paymentMethod: Method }>().paymentMethod;

      const plans = (await bea.get('/api/catalogue')).json<{ plans: Array<{ id: string; price: unknown }> }>().plans;
      expect(plans).toEqual([
        expect.objectContaining({ id: 'coffee-monthly', price: { amount: 2450, currency: 'EUR' }, billingFrequencyMonths: 1 }),
      ]);

      const subscribeKey = key();
      const created = await bea.post('/api/subscriptions', { planId: 'coffee-monthly', paymentMethodId: card.id }, subscribeKey);
      expect(created.statusCode).toBe(201);
      const subscription = created.json<{ subscription: Subscription }>().subscription;
      expect(subscription).toMatchObject({
        planId: 'coffee-monthly',
        planName: 'Coffee beans, 1 kg, every month',
        status: 'Active',
        price: { amount: 2450, currency: 'EUR' },
        paymentMethod: { id: card.id, lastFour: '4444' },
      });
      // A retry with the same key is the same subscription, not a second one.
      expect(
        (await bea.post('/api/subscriptions', { planId: 'coffee-monthly', paymentMethodId: card.id }, subscribeKey)).json(),
      ).toEqual(created.json());

      expect((await methods(bea))[0]).toMatchObject({ id: card.id, hasSubscription: true });
      const refused = await bea.request('DELETE', `/api/payment-methods/${card.id}`, undefined, key());
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'payment_method_has_subscription' });
      expect((await methods(bea)).map((m) => m.id)).toEqual([card.id]);

      const cal = await shopper('Cal');
      expect((await cal.post(`/api/subscriptions/${subscription.id}/cancel`, undefined, key())).json()).toMatchObject({
        status: 404,
        code: 'subscription_not_found',
      });

      const canceled = await bea.post(`/api/subscriptions/${subscription.id}/cancel`, undefined, key());
      expect(canceled.statusCode).toBe(200);
      expect(canceled.json()).toMatchObject({ subscription: { id: subscription.id, status: 'Canceled', nextBillingDate: null } });
      expect(
        (await bea.get('/api/subscriptions')).json<{ subscriptions: Subscription[] }>().subscriptions.map((s) => s.status),
      ).toEqual(['Canceled']);
      expect((await methods(bea))[0]).toMatchObject({ hasSubscription: false });
      expect((await bea.request('DELETE', `/api/payment-methods/${card.id}`, undefined, key())).statusCode).toBe(204);
    });

    it('card saves are card tests too: 3 failed verifications per account an hour, then refused before the gateway', async () => {
      const bea = await shopper('Bea');
      for (let i = 0; i < 3; i += 1) expect((await addCard(bea, FAILS_VERIFICATION)).statusCode).toBe(422);
      const fourth = await addCard(bea, MASTERCARD);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({ code: 'too_many_attempts', rule: 'card_save_failures_per_account_per_hour' });
      // Subscribing with a new card saves it: the same rules hold there.
      const subscribed = await bea.post('/api/subscriptions', { planId: 'coffee-monthly', nonce: AMEX }, key());
      expect(subscribed.json()).toMatchObject({ status: 429, rule: 'card_save_failures_per_account_per_hour' });
      expect(await methods(bea)).toEqual([]);
      // Another shopper elsewhere saves cards as usual.
      const cal = new TestClient(app, '198.51.100.23');
      expect((await cal.signUp({ email: `cal-${++keys}@example.com`, password: 'cal password', name: 'Cal' })).statusCode).toBe(
        201,
      );
      expect((await addCard(cal, MASTERCARD)).statusCode).toBe(201);
    });

    it('a save whose answer was lost, sent again with its Idempotency-Key and nonce, counts once: 5 saves an hour still reach the gateway', async () => {
      const bea = await shopper('Bea');
      const lost = key();
      // The verification's connection dropped: the server hears no answer (502) and the web app sends the save again.
      await injectSandboxFault(sandbox.origin, DROP_NEXT_CARD_SAVE);
      expect((await bea.post('/api/payment-methods', { nonce: MASTERCARD }, lost)).json()).toMatchObject({
        status: 502,
        code: 'gateway_unavailable',
      });
      expect((await bea.post('/api/payment-methods', { nonce: MASTERCARD }, lost)).statusCode).toBe(201);
      // Four more saves (the same card again: each verified, then refused as a duplicate) are the account's 5 an hour.
      for (let i = 0; i < 4; i += 1) expect((await addCard(bea, MASTERCARD)).json()).toMatchObject({ status: 409 });
      expect((await addCard(bea, AMEX)).json()).toMatchObject({ status: 429, rule: 'card_saves_per_account_per_hour' });
      expect((await methods(bea)).map((method) => method.lastFour)).toEqual(['4444']);
    });

    it('subscribes with a new card saved on the way (with a payment bot-check), refusing a duplicate and an unknown plan', async () => {
      const bea = await shopper('Bea');
      // A new card's first charge is a payment: no token, or one for another action, is refused before the gateway.
      for (const botcheck of [undefined, await bea.botcheckToken('save_card')]) {
        const refused = await bea.post('/api/subscriptions', { planId: 'coffee-monthly', nonce: AMEX, botcheck }, key());
        expect(refused.json()).toMatchObject({ status: 403, code: 'botcheck_failed' });
      }
      expect(await methods(bea)).toEqual([]);
      const paying = async () => ({ botcheck: await bea.botcheckToken('payment') });
      const created = await bea.post('/api/subscriptions', { planId: 'coffee-monthly', nonce: AMEX, ...(await paying()) }, key());
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ subscription: { status: 'Active', paymentMethod: { lastFour: '0005' } } });
      expect(await methods(bea)).toEqual([expect.objectContaining({ lastFour: '0005', hasSubscription: true })]);

      expect(
        (await bea.post('/api/subscriptions', { planId: 'coffee-monthly', nonce: AMEX, ...(await paying()) }, key())).json(),
      ).toMatchObject({ code: 'payment_method_duplicate' });
      expect(
        (await bea.post('/api/subscriptions', { planId: 'tea-weekly', nonce: MASTERCARD, ...(await paying()) }, key())).json(),
      ).toMatchObject({
        status: 404,
        code: 'plan_not_found',
      });
      const both = await bea.post('/api/subscriptions', { planId: 'coffee-monthly' }, key());
      expect(both.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'paymentMethodId' }] });
    });

    it('pays an order with a saved card through a nonce the server makes, and saves a card while paying only for a signed-in shopper', async () => {
      const bea = await shopper('Bea');
      const card = (await addCard(bea, MASTERCARD)).json<{ paymentMethod: Method }>().paymentMethod;

      async function payOrder(client: TestClient, body: Record<string, unknown>) {
        const order = (await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
          order: { id: string };
        }>().order;
        return client.post(`/api/orders/${order.id}/payments`, { botcheck: await client.botcheckToken(), ...body }, key());
      }

      const nonce = await bea.post(`/api/payment-methods/${card.id}/nonces`, undefined, key());
      expect(nonce.statusCode).toBe(201);
      const paid = await payOrder(bea, { nonce: nonce.json<{ nonce: string }>().nonce });
      expect(paid.statusCode).toBe(201);
      expect(paid.json()).toMatchObject({
        payment: { status: 'succeeded', card: { brand: 'MasterCard', lastFour: '4444' } },
        order: { status: 'paid' },
      });

      const saved = await payOrder(bea, { nonce: AMEX, saveCard: true });
      expect(saved.statusCode).toBe(201);
      expect((await methods(bea)).map((m) => m.lastFour)).toEqual(['4444', '0005']);

      const guest = new TestClient(app);
      const guestPaid = await payOrder(guest, { nonce: 'fake-valid-discover-nonce', saveCard: true });
      expect(guestPaid.statusCode).toBe(201);
      // The guest's card went nowhere: signing up afterwards shows no saved card.
      await guest.signUp({ email: `guest-${++keys}@example.com`, password: 'guest password', name: 'Gus' });
      expect(await methods(guest)).toEqual([]);
    });

    it('gives the demo shopper a saved card locked by an active coffee subscription at start, once', async () => {
      const opened = await engine.open();
      try {
        for (let start = 0; start < 2; start++) {
          const started = await buildApp(testConfig(opened.config, sandbox.gateway), {
            database: opened.handle,
            seedDemoVault: true,
          });
          await started.close();
        }
        const demoApp = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
        try {
          const demo = new TestClient(demoApp);
          await demo.post('/api/session', { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' });
          const saved = (await demo.get('/api/payment-methods')).json<{ paymentMethods: Method[] }>().paymentMethods;
          expect(saved).toEqual([
            expect.objectContaining({ brand: 'Visa', lastFour: '1881', default: true, hasSubscription: true }),
          ]);
          const subscriptions = (await demo.get('/api/subscriptions')).json<{ subscriptions: Subscription[] }>().subscriptions;
          expect(subscriptions).toEqual([expect.objectContaining({ planId: 'coffee-monthly', status: 'Active' })]);
        } finally {
          await demoApp.close();
        }
      } finally {
        await opened.cleanup();
      }
    });

    it('documents the new routes in the OpenAPI document, with the Idempotency-Key on each that changes state', async () => {
      const document = (await new TestClient(app).get('/api/openapi.json')).json<{
        paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>>;
      }>();
      for (const [path, method] of [
        ['/api/payment-methods', 'post'],
        ['/api/payment-methods/{id}/default', 'post'],
        ['/api/payment-methods/{id}', 'delete'],
        ['/api/payment-methods/{id}/nonces', 'post'],
        ['/api/subscriptions', 'post'],
        ['/api/subscriptions/{id}/cancel', 'post'],
      ] as const) {
        expect(
          document.paths[path]?.[method]?.parameters?.map((p) => p.name),
          `${method} ${path}`,
        ).toContain('idempotency-key');
      }
      expect(document.paths['/api/payment-methods']?.['get']).toBeDefined();
      expect(document.paths['/api/subscriptions']?.['get']).toBeDefined();
      expect(document.paths['/api/payment-methods/client-token']?.['post']).toBeDefined();
      expect(document.paths['/api/orders']?.['get']).toBeDefined();
    });
  },
);
