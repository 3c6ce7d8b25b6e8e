import { describe, expect, it } from 'vitest';
import { SandboxEnvError, sandboxOptionsFromEnv } from './env.ts';

describe('sandboxOptionsFromEnv', () => {
  it('has defaults for everything', () => {
    expect(sandboxOptionsFromEnv({})).toEqual({
      host: '127.0.0.1',
      port: 8090,
      currencyIsoCode: 'EUR',
      settlementDelayMs: 60_000,
    });
  });

  it('reads every variable', () => {
    expect(
      sandboxOptionsFromEnv({
        SANDBOX_HOST: '0.0.0.0',
        SANDBOX_PORT: '0',
        SANDBOX_CURRENCY: 'USD',
        SANDBOX_MERCHANT_ID: 'shop_1',
        SANDBOX_PUBLIC_KEY: 'pub',
        SANDBOX_PRIVATE_KEY: 'priv-ate',
        SANDBOX_SETTLEMENT_DELAY: '5',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 0,
      currencyIsoCode: 'USD',
      merchantId: 'shop_1',
      publicKey: 'pub',
      privateKey: 'priv-ate',
      settlementDelayMs: 5000,
    });
  });

  it('posts webhooks to SANDBOX_WEBHOOK_URL, an http(s) URL', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:3000/api/webhooks' }).webhookUrl).toBe(
      'http://127.0.0.1:3000/api/webhooks',
    );
    expect(() => sandboxOptionsFromEnv({ SANDBOX_WEBHOOK_URL: 'ftp://x' })).toThrow(
      'SANDBOX_WEBHOOK_URL must be an http(s) URL, got "ftp://x"',
    );
  });

  it('settles in the daily batch when SANDBOX_SETTLEMENT_DELAY is "batch"', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_SETTLEMENT_DELAY: 'batch' })).not.toHaveProperty('settlementDelayMs');
  });

  it('keeps the state in a file only when SANDBOX_DATA_FILE is set', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_DATA_FILE: 'data/sandbox.json' }).dataFile).toBe('data/sandbox.json');
    expect(sandboxOptionsFromEnv({ SANDBOX_DATA_FILE: '' })).not.toHaveProperty('dataFile');
  });

  it('takes a card identifier secret of at least 32 characters, and only then', () => {
    const secret = 's'.repeat(32);
    expect(sandboxOptionsFromEnv({ SANDBOX_CARD_ID_SECRET: secret }).cardIdentifierSecret).toBe(secret);
    expect(sandboxOptionsFromEnv({})).not.toHaveProperty('cardIdentifierSecret');
    expect(() => sandboxOptionsFromEnv({ SANDBOX_CARD_ID_SECRET: 'short' })).toThrow(
      'SANDBOX_CARD_ID_SECRET must be at least 32 characters long',
    );
  });

  it('turns the test-only fault controls on only with SANDBOX_TEST_CONTROLS=1', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_TEST_CONTROLS: '1' }).testControls).toBe(true);
    expect(sandboxOptionsFromEnv({ SANDBOX_TEST_CONTROLS: '0' })).not.toHaveProperty('testControls');
    expect(() => sandboxOptionsFromEnv({ SANDBOX_TEST_CONTROLS: 'yes' })).toThrow(
      'SANDBOX_TEST_CONTROLS must be 1 (on) or 0 (off), got "yes"',
    );
  });

  it('reads the plans (JSON) and the AVS/CVV rules', () => {
    const options = sandboxOptionsFromEnv({
      SANDBOX_PLANS: '[{"id":"tea-weekly","name":"Tea","price":900,"billingFrequency":1}]',
      SANDBOX_CARD_RULES: 'cvv, avs',
    });
    expect(options.plans).toEqual([{ id: 'tea-weekly', name: 'Tea', price: 900, billingFrequency: 1 }]);
    expect(options.cardRules).toEqual({ cvv: true, avs: true });
    expect(sandboxOptionsFromEnv({ SANDBOX_CARD_RULES: 'none' })).not.toHaveProperty('cardRules');
  });

  it('names bad plans and unknown rules', () => {
    expect(() => sandboxOptionsFromEnv({ SANDBOX_PLANS: '{' })).toThrow('SANDBOX_PLANS must be a JSON array');
    expect(() => sandboxOptionsFromEnv({ SANDBOX_PLANS: '[{"id":"x y","name":"","price":0}]' })).toThrow(
      'SANDBOX_PLANS: plan "x y": id must be 1-36 letters, digits, "_" or "-"\nSANDBOX_PLANS: plan "x y": name must be a non-empty string\nSANDBOX_PLANS: plan "x y": price must be a positive integer in minor units',
    );
    expect(() => sandboxOptionsFromEnv({ SANDBOX_CARD_RULES: 'cvv,street' })).toThrow('SANDBOX_CARD_RULES must list');
  });

  it('reads the merchant settings: challenges, wallets, 3-D Secure ("none" empties a list)', () => {
    expect(
      sandboxOptionsFromEnv({ SANDBOX_CHALLENGES: 'postal_code', SANDBOX_WALLETS: 'paypal, venmo', SANDBOX_THREE_D_SECURE: '1' })
        .merchantSettings,
    ).toEqual({ challenges: ['postal_code'], wallets: ['paypal', 'venmo'], threeDSecure: true });
    expect(sandboxOptionsFromEnv({ SANDBOX_CHALLENGES: 'none' }).merchantSettings).toEqual({ challenges: [] });
    expect(() => sandboxOptionsFromEnv({ SANDBOX_WALLETS: 'paypal,bitcoin', SANDBOX_THREE_D_SECURE: 'yes' })).toThrow(
      'SANDBOX_WALLETS must be "none" or a comma-separated list of paypal, apple_pay, google_pay, venmo, got "paypal,bitcoin"\n' +
        'SANDBOX_THREE_D_SECURE must be 1 (on) or 0 (off), got "yes"',
    );
  });

  it('names every bad variable at once', () => {
    let caught: unknown;
    try {
      sandboxOptionsFromEnv({
        SANDBOX_PORT: 'http',
        SANDBOX_CURRENCY: 'euro',
        SANDBOX_PUBLIC_KEY: 'a b',
        SANDBOX_SETTLEMENT_DELAY: '1.5',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SandboxEnvError);
    expect((caught as SandboxEnvError).problems).toEqual([
      'SANDBOX_PORT must be a port number (0-65535), got "http"',
      'SANDBOX_CURRENCY must be an ISO 4217 code such as EUR or USD, got "euro"',
      'SANDBOX_PUBLIC_KEY may contain only letters, digits, "_" and "-"',
      'SANDBOX_SETTLEMENT_DELAY must be "batch" or a whole number of seconds, got "1.5"',
    ]);
  });
});
