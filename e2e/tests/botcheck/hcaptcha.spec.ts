import { botcheckProviderSpecs } from '../../support/botcheck-provider-specs.ts';

// Through the local stand-in of hcaptcha: see support/botcheck-provider-specs.ts.
botcheckProviderSpecs('hcaptcha');
