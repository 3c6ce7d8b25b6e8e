import { botcheckProviderSpecs } from '../../support/botcheck-provider-specs.ts';

// Through the local stand-in of turnstile: see support/botcheck-provider-specs.ts.
botcheckProviderSpecs('turnstile');
