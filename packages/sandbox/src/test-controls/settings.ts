import type { SandboxGateway } from '../core/gateway.ts';
import { parseMerchantSettings } from '../core/merchant-settings.ts';
import type { MerchantSettings } from '../core/merchant-settings.ts';

/** The merchant settings of a running sandbox, for tests (the start values come from options / environment). */
export interface SandboxSettings {
  get(): MerchantSettings;
  /** Changes the given settings only; throws a TypeError naming every bad value. */
  update(changes: Partial<MerchantSettings>): MerchantSettings;
  /** Back to the settings the sandbox started with. */
  reset(): MerchantSettings;
}

export function settingsControl(gateway: SandboxGateway): SandboxSettings {
  const initial = gateway.settings;
  return {
    get: () => gateway.settings,
    update: (changes) => {
      const parsed = parseMerchantSettings(changes, gateway.settings);
      if (!parsed.ok) throw new TypeError(`sandbox settings: ${parsed.problems.join('; ')}`);
      gateway.settings = parsed.settings;
      return parsed.settings;
    },
    reset: () => {
      gateway.settings = initial;
      return initial;
    },
  };
}
