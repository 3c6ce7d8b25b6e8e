// The server's HTTP API as the web app sees it. The shapes are generated from the server's zod schemas
// (types.gen.ts, `npm run contract -w @kassa/server`); this file adds what only the client knows.
import type { Decline, FieldError, SavedPaymentMethod } from './types.gen.ts';

export type {
  Account,
  BotcheckSettings,
  CheckoutSession,
  ConfirmSignUpRequest,
  CreateOrderRequest,
  Decline,
  Money,
  Order,
  OrderItem,
  PayRequest,
  Payment,
  GuestOrder,
  Plan,
  Product,
  SavedPaymentMethod,
  SessionState,
  ShopConfig,
  SignInRequest,
  SignUpRequest,
  Subscription,
  SubscribeRequest,
  VaultSession,
} from './types.gen.ts';

/**
 * A failed call: the server's `application/problem+json` answer (types.gen.ts `Problem`), or one the client makes up
 * with codes of its own (`network_error`, bot-check time-outs; status 0 when nothing came back).
 */
export interface Problem {
  status: number;
  code: string;
  title?: string;
  detail?: string;
  errors?: FieldError[];
  decline?: Decline;
  /** `wallet_already_saved`: the wallet the shopper saved before. */
  paymentMethod?: SavedPaymentMethod;
}
