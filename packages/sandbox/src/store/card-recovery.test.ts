import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { luhnValid } from '../rules/card-fields.ts';
import { decodeClientToken, gatewayFor } from '../testing/sandbox.ts';
import { readStateFile } from '../testing/state-file.ts';
import { FILE_VERSION, openFileStore } from './file-store.ts';

// The attack of issue 9, run against what a stopped sandbox leaves on disk: its state file and, as npm start keeps
// them, its credentials in the same folder. The state file shows each card's BIN and last four; an attacker would try
// every Luhn-valid middle (100,000 numbers) against the stored identifier with every key they can build from the disk.
// That search succeeds exactly when one of those keys derives the identifier from the card's real number (any other
// match would be a collision of 128 bits), so the test checks the real number alone: the same verdict, without a
// minute of hashing. The old scheme (a key derived from the private key) gave back every number this way.

/** The state file's name, as npm start names it. */
const STATE_FILE = 'sandbox.sqlite';
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-card-recovery-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

interface StoredCard {
  bin: string;
  last4: string;
  uniqueNumberIdentifier: string;
}

/** The identifier as the sandbox computed it before issue 9: keyed by a key derived from the private key. */
function oldIdentifier(privateKey: string, merchantId: string, digits: string): string {
  const key = createHmac('sha256', privateKey).update(`kassa-sandbox/card-number-identifier/${merchantId}`).digest('hex');
  return createHmac('sha256', key).update(digits).digest('hex').slice(0, 32);
}

/**
 * The attacker's candidate secrets: every string of every file in the folder that could be a key (the credentials,
 * the merchant id; not the dates, amounts and statuses of the state file).
 */
function secretsOnDisk(): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string' && /^[a-z0-9_]{6,}$/.test(value) && !/^\d+$/.test(value)) found.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  for (const name of readdirSync(folder)) {
    // The state file: only its merchant record (the rest is ids, statuses and card data, none of it a key).
    if (name === STATE_FILE) walk(readStateFile(join(folder, name)).collections['merchant-account']);
    else walk(JSON.parse(readFileSync(join(folder, name), 'utf8')));
  }
  return [...found];
}

/** Every card record (anything with bin, last4 and an identifier) in the state file. */
function cardsOnDisk(file: string): StoredCard[] {
  const cards = new Map<string, StoredCard>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const { bin, last4, uniqueNumberIdentifier } = record;
    if (typeof bin === 'string' && typeof last4 === 'string' && typeof uniqueNumberIdentifier === 'string') {
      cards.set(uniqueNumberIdentifier, { bin, last4, uniqueNumberIdentifier });
    }
    Object.values(record).forEach(walk);
  };
  walk(readStateFile(file).collections);
  return [...cards.values()];
}

/**
 * Whether any way of hashing the attacker can build from the strings on disk turns `digits` (the card's real number,
 * which the search over the middle digits would reach) into the card's stored identifier.
 */
function derivableFromDisk(card: StoredCard, digits: string, onDisk: readonly string[]): boolean {
  expect(digits.startsWith(card.bin) && digits.endsWith(card.last4) && luhnValid(digits)).toBe(true);
  const hashes: Array<(digits: string) => string> = [
    (digits) => createHash('sha256').update(digits).digest('hex').slice(0, 32),
    (digits) => createHash('sha256').update(`fake-nonce-card:${digits}`).digest('hex').slice(0, 32),
  ];
  const keyed = (key: string) => {
    const keyObject = createSecretKey(Buffer.from(key));
    return (digits: string) => createHmac('sha256', keyObject).update(digits).digest('hex').slice(0, 32);
  };
  for (const privateKey of onDisk) {
    hashes.push(keyed(privateKey));
    for (const merchantId of onDisk) {
      hashes.push(
        keyed(createHmac('sha256', privateKey).update(`kassa-sandbox/card-number-identifier/${merchantId}`).digest('hex')),
      );
    }
  }
  return hashes.some((hash) => hash(digits) === card.uniqueNumberIdentifier);
}

const NUMBERS = ['4111111111111111', '5555555555554444'];
const CREDENTIALS = { merchantId: 'kassashop', publicKey: 'pub1', privateKey: 'private1' };

async function tokenizeAndCharge(sandbox: Sandbox, number: string): Promise<string> {
  const gateway = gatewayFor(sandbox);
  const token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
  const response = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: token.authorizationFingerprint,
      creditCard: { number, expirationDate: `12/${new Date().getUTCFullYear() + 2}`, cvv: '123' },
    }),
  });
  const body = (await response.json()) as { creditCards: Array<{ nonce: string }> };
  const sale = await gateway.transaction.sale({ amount: '10.00', paymentMethodNonce: body.creditCards[0]?.nonce ?? '' });
  return sale.transaction.creditCard?.uniqueNumberIdentifier ?? '';
}

describe('what a stopped sandbox leaves on disk', () => {
  it('no key found on disk derives a stored card identifier from its number, so no search of the middle digits can', async () => {
    const dataFile = join(folder, STATE_FILE);
    // As npm start keeps them: credentials in a file beside the state.
    writeFileSync(join(folder, 'sandbox-credentials.json'), JSON.stringify(CREDENTIALS));
    const sandbox = await startSandbox({ dataFile, ...CREDENTIALS });
    for (const number of NUMBERS) await tokenizeAndCharge(sandbox, number);
    await sandbox.close();

    const cards = cardsOnDisk(dataFile);
    expect(cards.map((card) => `${card.bin}…${card.last4}`).sort()).toEqual(['411111…1111', '555555…4444']);
    const onDisk = secretsOnDisk();
    expect(onDisk).toContain(CREDENTIALS.privateKey);
    const numberOf = (card: StoredCard) => NUMBERS.find((number) => number.endsWith(card.last4)) ?? '';
    for (const card of cards) expect(derivableFromDisk(card, numberOf(card), onDisk)).toBe(false);
  });

  it('the same check finds the number behind an identifier made the old way (the attack works)', () => {
    const card = {
      bin: '411111',
      last4: '1111',
      uniqueNumberIdentifier: oldIdentifier('private1', 'kassashop', NUMBERS[0] ?? ''),
    };
    expect(derivableFromDisk(card, NUMBERS[0] ?? '', ['private1', 'kassashop'])).toBe(true);
  });

  it("keeps a number's identifier within a process, not across a restart unless given a secret kept elsewhere", async () => {
    const dataFile = join(folder, STATE_FILE);
    const identifiers = async (options: { cardIdentifierSecret?: string }) => {
      const sandbox = await startSandbox({ dataFile, ...CREDENTIALS, ...options });
      try {
        return [await tokenizeAndCharge(sandbox, NUMBERS[0] ?? ''), await tokenizeAndCharge(sandbox, NUMBERS[0] ?? '')];
      } finally {
        await sandbox.close();
      }
    };
    const [first, again] = await identifiers({});
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(again).toBe(first);
    const [afterRestart] = await identifiers({});
    expect(afterRestart).not.toBe(first);

    const secret = 'a secret from the environment, not from the disk';
    const [withSecret] = await identifiers({ cardIdentifierSecret: secret });
    const [withSecretAfterRestart] = await identifiers({ cardIdentifierSecret: secret });
    expect(withSecretAfterRestart).toBe(withSecret);
  });

  it('upgrades a version 1 file: old identifiers are replaced at once, cards that shared one still do', () => {
    const file = join(folder, STATE_FILE);
    const old = oldIdentifier('private1', 'kassashop', NUMBERS[0] ?? '');
    const card = (id: string) => ({ card: { bin: '411111', last4: '1111', uniqueNumberIdentifier: id } });
    writeFileSync(
      file,
      JSON.stringify({
        format: 'kassa-sandbox-state',
        version: 1,
        collections: {
          nonces: [
            ['n1', card(old)],
            ['n2', card(old)],
            ['n3', card('other')],
          ],
        },
      }),
    );
    openFileStore(file).close();

    expect(readFileSync(file).includes(old)).toBe(false);
    expect(readStateFile(file).version).toBe(FILE_VERSION);
    const reopened = openFileStore(file);
    const ids = [...reopened.collection<{ card: StoredCard }>('nonces').inOrder()].map((n) => n.card.uniqueNumberIdentifier);
    reopened.close();
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(
      derivableFromDisk(
        { bin: '411111', last4: '1111', uniqueNumberIdentifier: ids[0] ?? '' },
        NUMBERS[0] ?? '',
        secretsOnDisk().concat('private1'),
      ),
    ).toBe(false);
  });
});
