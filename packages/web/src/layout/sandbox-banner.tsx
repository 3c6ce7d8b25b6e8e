import { messages } from '../i18n/messages.ts';
import { useShopConfig } from '../shop/shop-config.ts';

/** The test cards and the declining amount, shown only when the server says payments go to a sandbox gateway. */
export function SandboxBanner() {
  const config = useShopConfig();
  if (!config?.sandbox) return null;
  return (
    <aside className="sandbox-banner" aria-label={messages.sandboxLabel}>
      <p>
        <strong>{messages.sandboxTitle}</strong> {messages.sandboxNoMoney} {messages.sandboxCard}{' '}
        <code className="test-card">{messages.sandboxCardNumber}</code>
        {messages.sandboxCardRest} {messages.sandboxDecline}
      </p>
    </aside>
  );
}
