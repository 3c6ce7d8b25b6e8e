// The server's HTTP API as the web app sees it (packages/server/README.md is the reference).
export interface Money {
  amount: number;
  currency: string;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  price: Money;
}

export interface Account {
  id: string;
  email: string;
  name: string;
  role: 'shopper' | 'admin';
}

export interface OrderItem {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: Money;
  total: Money;
}

export interface Payment {
  id: string;
  status: string;
  amount?: Money;
  transactionId?: string;
  card?: { brand: string; lastFour: string };
}

export interface Order {
  id: string;
  /** The human order number the shopper reads (the id stays in URLs). */
  number: number;
  status: 'pending' | 'paid';
  items: OrderItem[];
  total: Money;
  createdAt: string;
  /** The successful attempt, else the latest one. */
  payment?: Payment;
  /** Every attempt, oldest first. */
  payments: Payment[];
}

export interface BotcheckSettings {
  provider: 'altcha';
  challengeUrl: string;
  anchorTimeoutMs: number;
  executeTimeoutMs: number;
}

export interface CheckoutSession {
  clientToken: string;
  amount: Money;
  checkout: { cardholderName: 'optional' | 'required' | false; vaultCard: boolean };
  botcheck: BotcheckSettings;
}

export interface Decline {
  reason: 'processor_declined' | 'gateway_rejected' | 'processor_unavailable' | 'currency_mismatch';
  processorResponseCode?: string;
  processorResponseText?: string;
  gatewayRejectionReason?: string;
}

/** An `application/problem+json` answer. */
export interface Problem {
  status: number;
  code: string;
  title?: string;
  detail?: string;
  errors?: Array<{ field: string; code: string; message: string }>;
  decline?: Decline;
}
