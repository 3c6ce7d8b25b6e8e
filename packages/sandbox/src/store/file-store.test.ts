import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxGateway } from '../core/gateway.ts';
import type { Authorization } from '../core/fingerprint.ts';
import { readStateFile } from '../testing/state-file.ts';
import { FILE_VERSION, FileStoreError, openFileStore } from './file-store.ts';
import type { FileStore } from './file-store.ts';
import { decodeValue, encodeValue, UnsupportedValueError } from './json-codec.ts';

// The file store through real files in a temporary folder.

let folder: string;
let file: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-store-'));
  file = join(folder, 'state.sqlite');
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every record of every collection, by collection name, in insertion order. */
function dump(store: FileStore, names: readonly string[]): Record<string, unknown[]> {
  return Object.fromEntries(names.map((name) => [name, [...store.collection<unknown>(name).inOrder()]]));
}

/** The collections in the file, each as its [id, record] pairs. */
function fileCollections(): Record<string, Array<[string, unknown]>> {
  return readStateFile(file).collections;
}

describe('every record type of core/ through a real file', () => {
  const CARD_NUMBER = '4111111111111111';
  const CVV = '987';
  const COLLECTIONS = [
    'nonces',
    'customers',
    'transactions',
    'api-request-keys',
    'payment-methods',
    'subscriptions',
    'settlement-queue',
    'clock',
    'billing-queue',
    'subscription-status-seen',
    'disputes',
    'device-sessions',
    'transaction-device-data',
  ] as const;

  function populate(store: FileStore) {
    let now = new Date('2026-06-15T12:00:00.123Z').getTime();
    const gateway = new SandboxGateway({ merchantId: 'm', publicKey: 'p', privateKey: 'k', store, clock: () => new Date(now) });
    const tick = () => void (now += 1000);
    const customer = gateway.vault.createCustomer({ id: '42', firstName: 'Ada', email: 'ada@example.com' });
    if (!customer.ok) throw new Error(customer.message);
    gateway.vault.createCustomer({ firstName: 'Grace' });
    const guest: Authorization = { merchantId: 'm', customerId: '42', expiresAt: Number.MAX_SAFE_INTEGER };
    const tokenize = () => {
      const outcome = gateway.tokenizeCard(guest, {
        number: CARD_NUMBER,
        expirationDate: '12/2030',
        cvv: CVV,
        cardholderName: 'Ada Lovelace',
        postalCode: '1000',
      });
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value.nonce;
    };
    const used = tokenize();
    const unused = tokenize();
    tick();
    const deviceSessionId = 'a'.repeat(32);
    gateway.deviceData.recordSession(deviceSessionId, { screenWidth: 390, language: 'en' }, new Date(now));
    const deviceData = JSON.stringify({ device_session_id: deviceSessionId });
    gateway.sale({ amount: '4.00', paymentMethodNonce: 'fake-valid-nonce', deviceData }, null);
    const sale = gateway.sale({ amount: '10.00', paymentMethodNonce: used, customerId: '42', orderId: 'o-1' }, 'key-sale');
    if (sale.kind !== 'success') throw new Error('sale failed');
    tick();
    gateway.submitForSettlement(sale.transaction.id, '5.00', 'key-settle');
    const declined = gateway.sale({ amount: '2000.00', paymentMethodNonce: 'fake-valid-nonce' }, 'key-declined');
    const invalid = gateway.sale({ amount: 'abc', paymentMethodNonce: 'fake-valid-nonce' }, 'key-invalid');
    const rejected = gateway.sale({ amount: '1.00', paymentMethodNonce: 'fake-gateway-rejected-fraud-nonce' }, null);
    tick();
    const toVoid = gateway.sale({ amount: '3.00', paymentMethodNonce: 'fake-valid-amex-nonce' }, null);
    if (toVoid.kind !== 'success') throw new Error('sale failed');
    gateway.void(toVoid.transaction.id, 'key-void');
    tick();
    // The vault and subscriptions: a verified saved card paying for the demo plan (its first charge is a transaction).
    const saved = gateway.vault.createPaymentMethod({
      customerId: '42',
      paymentMethodNonce: tokenize(),
      options: { verifyCard: true },
    });
    if (!saved.ok) throw new Error(saved.message);
    const subscription = gateway.subscriptions.create({ planId: 'coffee-monthly', paymentMethodToken: saved.value.saved.token });
    if (subscription.kind !== 'success') throw new Error('subscription failed');
    gateway.advanceClock(1000);
    expect([declined.kind, invalid.kind, rejected.kind]).toEqual(['unsuccessful', 'invalid', 'unsuccessful']);
    return { gateway, used, unused, saleId: sale.transaction.id, voidedId: toVoid.transaction.id, now: () => new Date(now) };
  }

  it('comes back identical (Dates as Dates, insertion order kept) and the gateway carries on from it', () => {
    const first = openFileStore(file);
    const { used, unused, saleId, voidedId } = populate(first);
    const before = dump(first, COLLECTIONS);
    first.close();

    // Every collection that holds records (an empty one has no rows).
    expect(Object.keys(fileCollections()).sort()).toEqual(COLLECTIONS.filter((name) => (before[name]?.length ?? 0) > 0).sort());
    const second = openFileStore(file);
    const after = dump(second, COLLECTIONS);
    // toStrictEqual: same prototypes (a Date stays a Date, not an ISO string), no extra or missing keys.
    expect(after).toStrictEqual(before);
    expect(after['nonces']?.length).toBe(3);
    expect(after['customers']?.length).toBe(2);
    expect(after['transactions']?.length).toBe(6);
    expect(after['payment-methods']?.length).toBe(1);
    expect(after['subscriptions']?.length).toBe(1);
    expect(after['api-request-keys']?.length).toBe(5);
    expect(after['device-sessions']?.length).toBe(1);
    expect(after['transaction-device-data']?.length).toBe(1);
    const transaction = second
      .collection<{ createdAt: unknown; statusHistory: Array<{ timestamp: unknown }> }>('transactions')
      .get(saleId);
    expect(transaction?.createdAt).toBeInstanceOf(Date);
    expect(transaction?.statusHistory.map((event) => event.timestamp)).toEqual([
      new Date('2026-06-15T12:00:01.123Z'),
      new Date('2026-06-15T12:00:02.123Z'),
    ]);

    // The same rules on the reloaded state: consumed stays consumed, replays replay, transitions go on.
    const gateway = new SandboxGateway({
      merchantId: 'm',
      publicKey: 'p',
      privateKey: 'k',
      store: second,
      clock: () => new Date('2026-06-15T12:01:00Z'), // within the nonces' 3 hours
    });
    const again = gateway.sale({ amount: '10.00', paymentMethodNonce: used }, null);
    expect(again.kind === 'invalid' ? again.errors.map((error) => error.code) : again.kind).toEqual(['91564']);
    expect(gateway.sale({ amount: '1.00', paymentMethodNonce: unused }, null).kind).toBe('success');
    const replay = gateway.sale({ amount: '10.00', paymentMethodNonce: used, customerId: '42', orderId: 'o-1' }, 'key-sale');
    expect(replay.kind === 'success' ? replay.transaction.id : replay.kind).toBe(saleId);
    expect(replay.kind === 'success' ? replay.transaction.createdAt : null).toStrictEqual(new Date('2026-06-15T12:00:01.123Z'));
    expect(gateway.findTransaction(voidedId)?.status).toBe('voided');
    expect(gateway.void(saleId, null)?.kind).toBe('success');
    second.close();
    expect(openFileStore(file).collection<{ status: string }>('transactions').get(saleId)?.status).toBe('voided');
  });

  it('upgrades a version 3 file in place: same records in the same order, its keys indexed for the gateway', () => {
    const first = openFileStore(file);
    const { saleId, now } = populate(first);
    first.close();
    const stored = readStateFile(file).collections;
    // Version 3 as it was: the same records table, no keys, insertion order across collections.
    const v3 = new Database(file);
    v3.exec(`
      DROP TABLE record_keys;
      DROP INDEX records_in_order;
      CREATE INDEX records_in_order ON records (seq);
      DELETE FROM meta WHERE key LIKE 'keys/%';
      UPDATE meta SET value = '3' WHERE key = 'version';
    `);
    v3.close();

    const store = openFileStore(file);
    expect(readStateFile(file)).toEqual({ version: FILE_VERSION, collections: stored });
    const gateway = new SandboxGateway({ merchantId: 'm', publicKey: 'p', privateKey: 'k', store, clock: now });
    // Keys rebuilt: the customer's card, its subscription by id, the card's duplicate, the sale's settlement batch.
    const customer = gateway.vault.findCustomer('42');
    expect(customer?.cards.map((card) => card.subscriptions.length)).toEqual([1]);
    const [subscriptionId] = customer?.cards[0]?.subscriptions.map((view) => view.subscription.id) ?? [];
    const found = gateway.searchSubscriptions({ id: { is: subscriptionId?.toUpperCase() } });
    expect(found.ok ? found.ids : found.problem).toEqual([subscriptionId]);
    const duplicate = gateway.vault.createPaymentMethod({
      customerId: '42',
      paymentMethodNonce: gateway.vault.createNonce(customer?.cards[0]?.saved.token ?? '')?.nonce,
      options: { failOnDuplicatePaymentMethod: true },
    });
    expect(duplicate.ok ? 'saved' : duplicate.errors.map((error) => error.code)).toEqual(['81724']);
    gateway.advanceClock(2 * 24 * 60 * 60 * 1000);
    expect(gateway.findTransaction(saleId)?.status).toBe('settled');
    store.close();
  });

  it('holds no card number and no CVV: BIN, last four and a hash keyed by a key kept in memory only', () => {
    const store = openFileStore(file);
    populate(store);
    store.close();
    const text = readFileSync(file, 'utf8');
    // Neither the tokenized card's number nor those of the fake nonces' test cards charged in populate().
    for (const number of [CARD_NUMBER, '4012888888881881', '378282246310005']) expect(text).not.toContain(number);
    expect(text).not.toMatch(/cvv/i);
    expect(text).not.toContain(`"${CVV}"`);
    const [, nonce] = fileCollections()['nonces']?.[0] ?? [];
    const card = (nonce as { card: Record<string, unknown> }).card;
    expect(Object.keys(card).sort()).toEqual(
      [
        'behaviour',
        'bin',
        'binData',
        'cardType',
        'cardholderName',
        'expirationMonth',
        'expirationYear',
        'last4',
        'postalCode',
        'postalCodeResponseCode',
        'securityCodeResponseCode',
        'uniqueNumberIdentifier',
      ].sort(),
    );
    expect([card['bin'], card['last4']]).toEqual(['411111', '1111']);
    expect(card['uniqueNumberIdentifier']).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('file store', () => {
  it('starts empty when the file is missing, creating its folder, and writes nothing until a change', () => {
    const nested = join(folder, 'a', 'b', 'state.sqlite');
    const store = openFileStore(nested);
    expect([...store.collection('customers').inOrder()]).toEqual([]);
    expect(statSync(join(folder, 'a', 'b')).isDirectory()).toBe(true);
    store.close();
    expect(readdirSync(join(folder, 'a', 'b'))).toEqual([]);
    expect(store.writes).toBe(0);
  });

  it('keeps insertion order, integer-like ids included (an object keyed by id would not)', () => {
    const store = openFileStore(file);
    const records = store.collection<{ n: number }>('records');
    for (const [n, id] of ['10', '2', 'b', '1', 'a', '0'].entries()) records.set(id, { n });
    records.delete('b');
    records.set('b', { n: 6 }); // deleted and added again: last
    records.set('10', { n: 7 }); // replaced: keeps its place
    store.close();
    const reloaded = openFileStore(file).collection<{ n: number }>('records');
    expect([...reloaded.inOrder()]).toEqual([{ n: 7 }, { n: 1 }, { n: 3 }, { n: 4 }, { n: 5 }, { n: 6 }]);
    expect(reloaded.get('0')).toEqual({ n: 5 });
  });

  it('coalesces a burst of changes into one write', async () => {
    const store = openFileStore(file, { debounceMs: 5 });
    const records = store.collection<{ n: number }>('records');
    for (let n = 0; n < 200; n += 1) records.set(`r${n}`, { n });
    for (let n = 0; n < 100; n += 1) records.delete(`r${n}`);
    expect(store.writes).toBe(0);
    await wait(60);
    expect(store.writes).toBe(1);
    expect(fileCollections()['records']?.length).toBe(100);
    records.set('late', { n: -1 });
    await wait(60);
    expect(store.writes).toBe(2);
    records.delete('absent'); // nothing changed: nothing written
    await wait(30);
    expect(store.writes).toBe(2);
    store.close();
  });

  it('writes pending changes on flush() and close(), synchronously; a closed store refuses changes', () => {
    const store = openFileStore(file, { debounceMs: 60_000 });
    const records = store.collection<{ n: number }>('records');
    records.set('a', { n: 1 });
    store.flush();
    expect(store.writes).toBe(1);
    expect(fileCollections()['records']).toEqual([['a', { n: 1 }]]);
    store.flush(); // nothing pending
    expect(store.writes).toBe(1);
    records.set('b', { n: 2 });
    store.close();
    expect(fileCollections()['records']).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 2 }],
    ]);
    expect(() => records.set('c', { n: 3 })).toThrow(FileStoreError);
    store.close(); // twice is fine
  });

  it('loses nothing a background write committed when the process is killed right after it', async () => {
    // The commit writes the log without flushing it to the disk (a thread flushes it afterwards): a killed process,
    // unlike a power cut, still leaves every committed burst, which the next open reads back from the log.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { openFileStore } from ${JSON.stringify(new URL('./file-store.ts', import.meta.url).href)};
        const store = openFileStore(${JSON.stringify(file)}, { debounceMs: 1 });
        for (let n = 0; n < 50; n += 1) store.collection('records').set('r' + n, { n });
        const written = () => (store.writes > 0 ? process.stdout.write('written') : setTimeout(written, 1));
        written();
        setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`exited with ${String(code)} before writing`)));
    });
    child.kill('SIGKILL');
    await exited;
    expect(readdirSync(folder)).toContain('state.sqlite-wal');
    const reopened = openFileStore(file);
    expect([...reopened.collection<{ n: number }>('records').inOrder()]).toEqual(Array.from({ length: 50 }, (_, n) => ({ n })));
    reopened.close();
  });

  it('reports a failed background write, keeps the changes pending and writes them on the next flush', async () => {
    const errors: FileStoreError[] = [];
    const store = openFileStore(file, { debounceMs: 1, onError: (error) => errors.push(error) });
    mkdirSync(file); // the rename over a folder fails
    writeFileSync(join(file, 'keep'), 'x');
    store.collection<number>('records').set('a', 1);
    await wait(30);
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining(`cannot write sandbox data file ${file}`)]);
    expect(store.writes).toBe(0);
    expect(() => store.flush()).toThrow(FileStoreError);
    rmSync(file, { recursive: true });
    store.close();
    expect(fileCollections()['records']).toEqual([['a', 1]]);
    expect(readdirSync(folder)).toEqual(['state.sqlite']);
  });

  it('converts a JSON state file of an earlier version in place: same records, same order, nothing else left', () => {
    const json = join(folder, 'state.json');
    writeFileSync(
      json,
      JSON.stringify({
        format: 'kassa-sandbox-state',
        version: 2,
        collections: {
          c: [
            ['2', 'b'],
            ['1', { $date: '2026-01-01T00:00:00.000Z' }],
          ],
        },
      }),
    );
    const store = openFileStore(json);
    expect([...store.collection('c').inOrder()]).toEqual(['b', new Date('2026-01-01T00:00:00.000Z')]);
    store.collection<string>('c').set('3', 'c');
    store.close();
    expect(readStateFile(json)).toEqual({
      version: FILE_VERSION,
      collections: {
        c: [
          ['2', 'b'],
          ['1', { $date: '2026-01-01T00:00:00.000Z' }],
          ['3', 'c'],
        ],
      },
    });
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('keeps the file and its write-ahead log at mode 0600, whatever the mode of the file it opens or converts', () => {
    writeFileSync(file, '{"format":"kassa-sandbox-state","version":2,"collections":{}}');
    chmodSync(file, 0o644);
    const store = openFileStore(file);
    store.collection<string>('records').set('a', 'x');
    store.flush();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    store.close();
    chmodSync(file, 0o644);
    openFileStore(file).close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['not JSON', '{"format": "kassa-sandbox-state", "vers', /not JSON/],
    ['empty', '', /not JSON/],
    ['another format', '{"customers": []}', /"format" is not "kassa-sandbox-state"/],
    ['a future version', '{"format":"kassa-sandbox-state","version":3,"collections":{}}', /unsupported version 3/],
    ['a bad pair', '{"format":"kassa-sandbox-state","version":2,"collections":{"c":[["a"]]}}', /collection "c" entry 0/],
    ['an id twice', '{"format":"kassa-sandbox-state","version":2,"collections":{"c":[["a",1],["a",2]]}}', /id "a" twice/],
    [
      'a bad Date',
      '{"format":"kassa-sandbox-state","version":2,"collections":{"c":[["a",{"$date":"soon"}]]}}',
      /c\/a: bad \$date/,
    ],
    ['an unknown tag', '{"format":"kassa-sandbox-state","version":2,"collections":{"c":[["a",{"$map":[]}]]}}', /unknown tag/],
    ['another SQLite database', 'sqlite', /no sandbox state in this SQLite file/],
  ])('refuses a corrupt file (%s), naming it, and never resets it', (_case, text, reason) => {
    if (text === 'sqlite') {
      const other = new Database(file);
      other.exec('CREATE TABLE t (x)');
      other.close();
    } else writeFileSync(file, text);
    const before = readFileSync(file);
    let caught: unknown;
    try {
      openFileStore(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FileStoreError);
    expect((caught as FileStoreError).file).toBe(file);
    expect((caught as FileStoreError).message).toContain(file);
    expect((caught as FileStoreError).message).toMatch(reason);
    expect(readFileSync(file)).toEqual(before);
  });

  it('refuses, at set(), a value JSON would not give back as it was; nothing is stored', () => {
    class Point {
      x = 1;
    }
    const store = openFileStore(file);
    const records = store.collection<unknown>('records');
    for (const bad of [
      new Map(),
      new Set(),
      1n,
      Number.NaN,
      new Point(),
      { list: [undefined] },
      { at: new Date(Number.NaN) },
      () => 1,
    ]) {
      expect(() => records.set('bad', { nested: bad })).toThrow(UnsupportedValueError);
    }
    expect(records.has('bad')).toBe(false);
    expect(() => records.set('bad', { nested: new Map() })).toThrow('records/bad.nested: cannot persist a Map');
    store.close();
    expect(store.writes).toBe(0);
  });
});

describe('json codec', () => {
  it('round-trips Dates, "$" keys, "__proto__" keys, nested arrays and null-prototype objects', () => {
    const special = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const value = {
      at: new Date('2026-01-02T03:04:05.678Z'),
      $date: 'not a tag',
      $$money: 1,
      list: [new Date(0), [null, true, 'x', -1.5]],
      special,
      bare,
      skipped: undefined,
    };
    const text = JSON.stringify(encodeValue(value, 'v'));
    const back = decodeValue(JSON.parse(text), 'v') as Record<string, unknown>;
    expect(back['at']).toStrictEqual(value.at);
    expect(back['$date']).toBe('not a tag');
    expect(back['$$money']).toBe(1);
    expect(back['list']).toStrictEqual([new Date(0), [null, true, 'x', -1.5]]);
    expect(Object.getOwnPropertyNames(back['special'])).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(back['bare']).toEqual({ a: 1 });
    expect('skipped' in back).toBe(false);
    // The keys come back in their order, the escaped ones too (decoding works in place on what JSON.parse gave).
    expect(Object.keys(back)).toEqual(['at', '$date', '$$money', 'list', 'special', 'bare']);
    // Encoding shares the parts it need not change with the value, and changes nothing in it.
    expect(value.list[0]).toBeInstanceOf(Date);
    expect(Object.keys(value)).toContain('skipped');
  });

  it('names where a refused value sits, in arrays and nested objects', () => {
    expect(() => encodeValue({ a: [1, { b: [new Map()] }] }, 'c/id')).toThrow('c/id.a[1].b[0]: cannot persist a Map');
    expect(() => decodeValue(JSON.parse('{"a":[{"$x":1}]}'), 'c/id')).toThrow('c/id.a[0]: unknown tag "$x"');
  });
});
