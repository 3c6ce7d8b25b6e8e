import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { errorCodes, gatewayFor, untypedTransactions } from '../testing/sandbox.ts';

// Settlement, voids and refunds through the OFFICIAL SDK against a sandbox that settles 60 s after submission; the
// tests move the sandbox's clock instead of waiting.

const DELAY_MS = 60_000;
let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  sandbox = await startSandbox({ settlementDelayMs: DELAY_MS, testControls: true });
  gateway = gatewayFor(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

async function sale(amount: string, submitForSettlement: boolean): Promise<braintree.Transaction> {
  const result = await gateway.transaction.sale({
    amount,
    paymentMethodNonce: 'fake-valid-nonce',
    options: { submitForSettlement },
  });
  expect(result.success).toBe(true);
  return result.transaction;
}

/** A sale for `amount`, captured and settled by the testing call. */
async function settledSale(amount: string): Promise<braintree.Transaction> {
  const { id } = await sale(amount, true);
  return (await gateway.testing.settle(id)).transaction;
}

function statuses(transaction: braintree.Transaction): string[] {
  return (transaction.statusHistory ?? []).map((event) => event.status);
}

describe('settlement by itself', () => {
  it('settles a captured sale when its batch runs (settling, then settled), not before', async () => {
    const { id } = await sale('10.00', true);
    sandbox.advanceClock(DELAY_MS - 1000);
    expect((await gateway.transaction.find(id)).status).toBe('submitted_for_settlement');
    sandbox.advanceClock(1000);
    const settled = await gateway.transaction.find(id);
    expect(settled.status).toBe('settled');
    expect(statuses(settled)).toEqual(['authorized', 'submitted_for_settlement', 'settling', 'settled']);
    expect(settled.settlementBatchId).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}_${sandbox.merchantId}$`));
  });

  it('leaves an authorization alone, and settles the part submitted by a partial submitForSettlement', async () => {
    const { id } = await sale('50.00', false);
    sandbox.advanceClock(DELAY_MS);
    expect((await gateway.transaction.find(id)).status).toBe('authorized');
    const submitted = await gateway.transaction.submitForSettlement(id, '20.00');
    expect(submitted.transaction.amount).toBe('20.00');
    expect(submitted.transaction.statusHistory?.map((event) => [event.status, event.amount])).toEqual([
      ['authorized', '50.00'],
      ['submitted_for_settlement', '20.00'],
    ]);
    sandbox.advanceClock(DELAY_MS);
    const settled = await gateway.transaction.find(id);
    expect([settled.status, settled.amount]).toEqual(['settled', '20.00']);
  });

  it('refuses to submit more than the authorization (91522) or twice (91507)', async () => {
    const { id } = await sale('10.00', false);
    expect(errorCodes(await gateway.transaction.submitForSettlement(id, '10.01'))).toEqual(['91522']);
    expect((await gateway.transaction.submitForSettlement(id)).success).toBe(true);
    expect(errorCodes(await gateway.transaction.submitForSettlement(id))).toEqual(['91507']);
  });
});

describe('testing calls (settle on demand)', () => {
  it('settle, settlementPending then settle, settlementDecline, settlementConfirm, each in the status history', async () => {
    const settled = await settledSale('10.00');
    expect(statuses(settled)).toEqual(['authorized', 'submitted_for_settlement', 'settled']);
    expect((await gateway.testing.settlementConfirm(settled.id)).transaction.status).toBe('settlement_confirmed');

    const pending = await gateway.testing.settlementPending((await sale('10.00', true)).id);
    expect(pending.transaction.status).toBe('settlement_pending');
    expect((await gateway.testing.settle(pending.transaction.id)).transaction.status).toBe('settled');

    const declined = await gateway.testing.settlementDecline((await sale('10.00', true)).id);
    expect(declined.transaction.status).toBe('settlement_declined');
    expect(statuses(declined.transaction)).toEqual(['authorized', 'submitted_for_settlement', 'settlement_declined']);
  });

  it('answers 91575 for a transaction not submitted for settlement, and the batch does not settle it twice', async () => {
    const authorized = await sale('10.00', false);
    // The SDK hands testing calls' answers over unwrapped: the parsed <api-error-response> itself.
    const refused = (await gateway.testing.settle(authorized.id)) as unknown as {
      apiErrorResponse: { errors: { transaction: { errors: Array<{ code: string }> } } };
    };
    expect(refused.apiErrorResponse.errors.transaction.errors.map((error) => error.code)).toEqual(['91575']);
    const declined = await gateway.testing.settlementDecline((await sale('10.00', true)).id);
    sandbox.advanceClock(DELAY_MS);
    expect((await gateway.transaction.find(declined.transaction.id)).status).toBe('settlement_declined');
  });

  it('answers notFoundError for an unknown transaction', async () => {
    await expect(gateway.testing.settle('nosuchtransaction')).rejects.toMatchObject({ type: 'notFoundError' });
  });
});

describe('void', () => {
  it('voids an authorization and a capture before settlement; the batch then leaves it voided', async () => {
    const authorized = await sale('10.00', false);
    expect((await gateway.transaction.void(authorized.id)).transaction.status).toBe('voided');
    const captured = await sale('10.00', true);
    const voided = await gateway.transaction.void(captured.id);
    expect(statuses(voided.transaction)).toEqual(['authorized', 'submitted_for_settlement', 'voided']);
    sandbox.advanceClock(DELAY_MS);
    expect((await gateway.transaction.find(captured.id)).status).toBe('voided');
  });

  it('refuses to void a settled, declined or already voided transaction (91504)', async () => {
    const settled = await settledSale('10.00');
    expect(errorCodes(await gateway.transaction.void(settled.id))).toEqual(['91504']);
    const declined = await gateway.transaction.sale({ amount: '2000.00', paymentMethodNonce: 'fake-valid-nonce' });
    expect(errorCodes(await gateway.transaction.void(declined.transaction.id))).toEqual(['91504']);
    const voided = await sale('10.00', false);
    await gateway.transaction.void(voided.id);
    expect(errorCodes(await gateway.transaction.void(voided.id))).toEqual(['91504']);
  });
});

describe('refunds', () => {
  it('refunds a settled sale in full as a credit that points back at it and settles with its batch', async () => {
    const settled = await settledSale('25.00');
    const result = await gateway.transaction.refund(settled.id);
    expect(result.success).toBe(true);
    const credit = result.transaction;
    expect([credit.type, credit.status, credit.amount]).toEqual(['credit', 'submitted_for_settlement', '25.00']);
    expect(credit.refundedTransactionId).toBe(settled.id);
    expect(credit.creditCard?.last4).toBe(settled.creditCard?.last4);
    expect((await gateway.transaction.find(settled.id)).refundIds).toEqual([credit.id]);
    sandbox.advanceClock(DELAY_MS);
    expect((await gateway.transaction.find(credit.id)).status).toBe('settled');
  });

  it('takes several partial refunds up to the amount: 91521 beyond what is left, 91512 once all is refunded', async () => {
    const settled = await settledSale('30.00');
    const first = await gateway.transaction.refund(settled.id, '10.00');
    const second = await gateway.transaction.refund(settled.id, '15.00');
    expect([first.transaction.amount, second.transaction.amount]).toEqual(['10.00', '15.00']);
    expect(errorCodes(await gateway.transaction.refund(settled.id, '5.01'))).toEqual(['91521']);
    // No amount: what is left.
    const rest = await gateway.transaction.refund(settled.id);
    expect(rest.transaction.amount).toBe('5.00');
    expect((await gateway.transaction.find(settled.id)).refundIds).toEqual([
      first.transaction.id,
      second.transaction.id,
      rest.transaction.id,
    ]);
    expect(errorCodes(await gateway.transaction.refund(settled.id, '0.01'))).toEqual(['91512']);
    expect(errorCodes(await gateway.transaction.refund(settled.id))).toEqual(['91512']);
  });

  it('gives back what a voided refund had taken', async () => {
    const settled = await settledSale('10.00');
    const refund = await gateway.transaction.refund(settled.id);
    expect((await gateway.transaction.void(refund.transaction.id)).transaction.status).toBe('voided');
    expect((await gateway.transaction.refund(settled.id, '10.00')).success).toBe(true);
  });

  it('answers 91506 before settlement, 91574 while settlement is pending, 91505 for a credit', async () => {
    const authorized = await sale('10.00', false);
    expect(errorCodes(await gateway.transaction.refund(authorized.id))).toEqual(['91506']);
    const captured = await sale('10.00', true);
    expect(errorCodes(await gateway.transaction.refund(captured.id))).toEqual(['91506']);
    await gateway.testing.settlementPending(captured.id);
    expect(errorCodes(await gateway.transaction.refund(captured.id))).toEqual(['91574']);
    const credit = (await gateway.transaction.refund((await settledSale('10.00')).id)).transaction;
    await gateway.testing.settle(credit.id);
    expect(errorCodes(await gateway.transaction.refund(credit.id))).toEqual(['91505']);
  });

  it('validates the amount (81503 format, 81531 zero) and answers notFoundError for an unknown sale', async () => {
    const settled = await settledSale('10.00');
    expect(errorCodes(await gateway.transaction.refund(settled.id, 'ten'))).toEqual(['81503']);
    expect(errorCodes(await gateway.transaction.refund(settled.id, '0.00'))).toEqual(['81531']);
    await expect(gateway.transaction.refund('nosuchtransaction')).rejects.toMatchObject({ type: 'notFoundError' });
  });
});

describe('apiRequestKey on refund, void and submitForSettlement', () => {
  const calls = () => untypedTransactions(gateway);

  it('answers a repeated refund with the first credit, and 915232 for the same key with another amount', async () => {
    const settled = await settledSale('20.00');
    const first = await calls().refund(settled.id, { amount: '5.00', apiRequestKey: 'refund-key-1' });
    const again = await calls().refund(settled.id, { amount: '5.00', apiRequestKey: 'refund-key-1' });
    expect(again.transaction.id).toBe(first.transaction.id);
    expect((await gateway.transaction.find(settled.id)).refundIds).toEqual([first.transaction.id]);
    expect(errorCodes(await calls().refund(settled.id, { amount: '6.00', apiRequestKey: 'refund-key-1' }))).toEqual(['915232']);
  });

  it('replays a void and a submitForSettlement instead of answering 91504 / 91507', async () => {
    const authorized = await sale('10.00', false);
    const submitted = await calls().submitForSettlement(authorized.id, undefined, { apiRequestKey: 'submit-key-1' });
    const replayed = await calls().submitForSettlement(authorized.id, undefined, { apiRequestKey: 'submit-key-1' });
    expect([submitted.success, replayed.success, replayed.transaction.status]).toEqual([true, true, 'submitted_for_settlement']);
    const voided = await calls().void(authorized.id, { apiRequestKey: 'void-key-1' });
    const voidedAgain = await calls().void(authorized.id, { apiRequestKey: 'void-key-1' });
    expect([voided.success, voidedAgain.success, voidedAgain.transaction.status]).toEqual([true, true, 'voided']);
  });
});

describe('the clock control over HTTP', () => {
  const clockUrl = () => `${sandbox.origin}/__sandbox/clock`;

  it('moves the time forward and runs the batch that fell due; refuses to go back; absent without testControls', async () => {
    const { id } = await sale('10.00', true);
    const before = (await (await fetch(clockUrl())).json()) as { now: string };
    const moved = await fetch(clockUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: DELAY_MS }),
    });
    const { now } = (await moved.json()) as { now: string };
    expect(Date.parse(now) - Date.parse(before.now)).toBeGreaterThanOrEqual(DELAY_MS);
    expect((await gateway.transaction.find(id)).status).toBe('settled');

    const backwards = await fetch(clockUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: -1 }),
    });
    expect(backwards.status).toBe(400);
    const plain = await startSandbox();
    try {
      expect((await fetch(`${plain.origin}/__sandbox/clock`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('across a restart (dataFile)', () => {
  it('keeps the pending batch, the clock and the refunds: a restarted sandbox settles what was submitted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-settlement-'));
    const options = {
      dataFile: join(folder, 'sandbox.json'),
      settlementDelayMs: DELAY_MS,
      merchantId: 'm1',
      publicKey: 'p1',
      privateKey: 'k1',
    };
    try {
      const first = await startSandbox(options);
      const firstGateway = gatewayFor(first);
      const sold = await firstGateway.transaction.sale({
        amount: '10.00',
        paymentMethodNonce: 'fake-valid-nonce',
        options: { submitForSettlement: true },
      });
      const settled = await firstGateway.testing.settle(
        (
          await firstGateway.transaction.sale({
            amount: '8.00',
            paymentMethodNonce: 'fake-valid-nonce',
            options: { submitForSettlement: true },
          })
        ).transaction.id,
      );
      const refund = await firstGateway.transaction.refund(settled.transaction.id, '3.00');
      const movedTo = first.advanceClock(1000);
      await first.close();

      const second = await startSandbox(options);
      try {
        const secondGateway = gatewayFor(second);
        expect(second.advanceClock(0).getTime()).toBeGreaterThanOrEqual(movedTo.getTime());
        second.advanceClock(DELAY_MS);
        expect((await secondGateway.transaction.find(sold.transaction.id)).status).toBe('settled');
        expect((await secondGateway.transaction.find(refund.transaction.id)).status).toBe('settled');
        expect(errorCodes(await secondGateway.transaction.refund(settled.transaction.id, '5.01'))).toEqual(['91521']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
