import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sandboxPerFile } from '../testing/sandbox.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from './braintree.ts';
import { BraintreeCardLookup } from './braintree-card-lookup.ts';
import { BraintreeVaultAdapter } from './braintree-vault.ts';
import { GatewayUnavailableError } from './gateway.ts';

/** A port nothing listens on: a gateway there is down (the SDK's call fails at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the card look-up of a nonce Kassa made itself (a saved card, against the sandbox gateway)', () => {
  const sandbox = sandboxPerFile();

  it("describes it from paymentMethodNonce.create's answer, as find would, without asking the gateway; once", async () => {
    const client = createBraintreeClient(sandbox.gateway);
    const { customerId } = await new BraintreeGatewayAdapter(client).createCustomer({ email: 'c@example.com', name: 'C' });
    const vault = new BraintreeVaultAdapter(client);
    const saved = await vault.addMethod({ customerId, nonce: 'fake-valid-visa-nonce', makeDefault: true });
    if (saved.kind !== 'saved') expect.fail(`card not saved: ${saved.kind}`);
    const { nonce, card } = await vault.createNonce(saved.method.token);
    // The gateway's own description of the nonce, asked as for any other.
    expect(card).toEqual(await new BraintreeCardLookup(client).describeNonce(nonce));
    expect(card).toMatchObject({ bin: expect.stringMatching(/^\d{6}$/), lastFour: expect.stringMatching(/^\d{4}$/) });

    // The same look-up with the gateway down: the nonce it was told of is described; asked again, it goes to the gateway.
    const down = new BraintreeCardLookup(createBraintreeClient({ ...sandbox.gateway, port: await closedPort() }));
    if (card === null) expect.fail('no card described');
    down.remember(nonce, card);
    expect(await down.describeNonce(nonce)).toEqual(card);
    await expect(down.describeNonce(nonce)).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('asks the gateway for a nonce it was told of too long ago', async () => {
    let now = Date.parse('2026-11-26T12:00:00Z');
    const down = new BraintreeCardLookup(createBraintreeClient({ ...sandbox.gateway, port: await closedPort() }), () => now);
    down.remember('made-long-ago', { bin: '411111', lastFour: '1111', expirationMonth: '12', expirationYear: '2030' });
    now += 11 * 60 * 1000;
    await expect(down.describeNonce('made-long-ago')).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});
