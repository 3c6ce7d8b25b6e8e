import { botcheckProviderSpecs } from '../../support/botcheck-provider-specs.ts';

// Through the local stand-in of recaptcha-v2: see support/botcheck-provider-specs.ts.
botcheckProviderSpecs('recaptcha-v2');
