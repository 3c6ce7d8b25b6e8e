import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, renderWebContract } from '../../scripts/generate-web-contract.ts';

describe("the web app's generated copy of the contract", () => {
  it.each(renderWebContract().map((file) => [file.path, file] as const))(
    "%s is what the server's schemas generate (else: npm run contract -w @kassa/server)",
    (_path, file) => {
      expect(readFileSync(REPOSITORY_ROOT + file.path, 'utf8')).toBe(file.text);
    },
  );

  it('names each API shape and request body as a type', () => {
    const types = renderWebContract().find((file) => file.path.endsWith('types.gen.ts'))?.text ?? '';
    for (const name of ['Order', 'Payment', 'CheckoutSession', 'Problem', 'PayRequest', 'CreateOrderRequest'])
      expect(types).toContain(`export type ${name} =`);
    // A named shape inside another is referenced, not repeated.
    expect(types).toMatch(/export type Order = \{[\s\S]*?payments: Payment\[\];/);
  });
});
