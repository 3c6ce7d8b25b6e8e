// /plain-checkout.html?order=ord_…[&locale=ar][&theme=dark]: the checkout on a page without React, paid by a plain
// form post. The drop-in entry mounts the checkout into the form; on submit it writes payment_method_nonce and
// device_data and submits the form to POST /api/form-payments, which redirects to the receipt, or back here with
// ?error=<code>. Before that, this page solves the bot-check at submit time (its solution lives 120 s). The page's own
// words are in the checkout's locale (plain-messages.ts).
import { CheckoutError, create, directionOf, resolveLocale } from '@kassa/checkout/dropin';
import '@kassa/checkout/styles.css';
import './plain-checkout.css';
import { api, ApiError } from '../api/client.ts';
import type { CheckoutSession, Decline } from '../api/types.ts';
import { BotcheckError, runBotcheck } from '../botcheck/botcheck.ts';
import { formatMoney } from '../format/money.ts';
import { plainWords } from './plain-messages.ts';

/** A bot-check solution older than this is solved again before it is posted (the server keeps one 120 s). */
const BOTCHECK_FRESH_MS = 60_000;

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`plain-checkout.html must contain #${id}`);
  return found;
}

const params = new URLSearchParams(location.search);
const orderId = params.get('order') ?? '';
if (params.get('theme') === 'dark') document.documentElement.dataset.kassaTheme = 'dark';
// The page speaks the checkout's language: the same tag, resolved the same way (an unknown one is English). The server
// sends the shopper back with ?error= only, so the tab remembers the language it was asked for.
const LOCALE_KEY = 'kassa-plain-checkout-locale';
const locale = resolveLocale(params.get('locale') ?? sessionStorage.getItem(LOCALE_KEY) ?? undefined);
if (params.has('locale')) sessionStorage.setItem(LOCALE_KEY, locale);
const words = plainWords(locale);
document.documentElement.lang = locale;
document.documentElement.dir = directionOf(locale);
const money = (amount: Parameters<typeof formatMoney>[0]): string => formatMoney(amount, locale);

const form = element('plain-form', HTMLFormElement);
const pay = element('plain-pay', HTMLButtonElement);
const errorLine = element('plain-error', HTMLParagraphElement);
document.title = words.documentTitle(words.title);
element('plain-title', HTMLHeadingElement).textContent = words.title;

/** `decline`: the order's latest attempt, when the server sent the shopper back for a declined payment. */
function showError(code: string, decline?: Decline): void {
  errorLine.textContent = words.problem(code, decline);
}

function hiddenInput(name: string): HTMLInputElement {
  const input = form.elements.namedItem(name);
  if (!(input instanceof HTMLInputElement)) throw new Error(`the form must have an input named ${name}`);
  return input;
}

/** Holds the first submit until the bot-check is solved, then submits again for the drop-in to pay. */
function solveBotcheckOnSubmit(session: CheckoutSession): void {
  const token = hiddenInput('botcheck');
  let solvedAt = 0;
  form.addEventListener('submit', (event) => {
    if (token.value !== '' && Date.now() - solvedAt < BOTCHECK_FRESH_MS) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    pay.disabled = true;
    pay.textContent = words.checkingYouAreHuman;
    runBotcheck(session.botcheck)
      .then(
        (solution) => {
          token.value = solution;
          solvedAt = Date.now();
          form.requestSubmit();
        },
        (error: unknown) => showError(error instanceof BotcheckError ? error.code : 'botcheck_unavailable'),
      )
      .finally(() => {
        pay.disabled = false;
        pay.textContent = words.pay(money(session.amount));
      });
  });
}

async function start(): Promise<void> {
  const { order } = await api.order(orderId);
  const returned = params.get('error');
  if (returned !== null) showError(returned, order.payment?.status === 'declined' ? order.payment.decline : undefined);
  element('plain-amount', HTMLParagraphElement).textContent = money(order.total);
  if (order.status !== 'pending') {
    showError('order_already_paid');
    return;
  }
  const session = await api.checkoutSession(orderId);
  hiddenInput('order_id').value = orderId;
  pay.textContent = words.pay(money(session.amount));
  form.hidden = false;
  // Registered before the drop-in's own submit listener, so the bot-check is solved before it pays.
  solveBotcheckOnSubmit(session);
  await create({
    authorization: session.clientToken,
    container: '#plain-dropin',
    cardholderName: session.checkout.cardholderName,
    locale,
  });
  pay.disabled = false;
}

start().catch((error: unknown) => {
  if (error instanceof ApiError) showError(error.problem.code);
  // The checkout could not load (it empties its container, as the provider's does): its own message, translated.
  else if (error instanceof CheckoutError) errorLine.textContent = error.message;
  else showError('unexpected_error');
});
