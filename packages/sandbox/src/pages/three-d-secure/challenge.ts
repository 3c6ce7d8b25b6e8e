import { messages } from './messages.ts';
import { CHALLENGE_MESSAGE_SOURCE } from './protocol.ts';
import type { ChallengeFragment, ChallengeMessage } from './protocol.ts';

// The issuer's challenge page (entry of challenge.js): shows the payment, takes the one-time code, and tells the
// checkout that opened it (parent frame or opener window, only at the origin it named) when it is done or cancelled.
// Keyboard: focus starts in the code field and stays inside the page (Tab wraps), Escape cancels.

interface ChallengeDetails {
  state: 'pending' | 'completed' | 'cancelled';
  amount: string;
  currencyIsoCode: string;
  cardType: string;
  lastFour: string;
}

function readFragment(hash: string): ChallengeFragment | null {
  try {
    const value = JSON.parse(decodeURIComponent(hash.replace(/^#/, ''))) as Partial<ChallengeFragment>;
    if (typeof value.challengeId === 'string' && typeof value.parentOrigin === 'string') {
      return { challengeId: value.challengeId, parentOrigin: value.parentOrigin };
    }
  } catch {
    // Falls through: a page opened without a challenge shows that it has none.
  }
  return null;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`challenge page: #${id} is missing`);
  return found as T;
}

const fragment = readFragment(location.hash);
const form = element<HTMLFormElement>('form');
const input = element<HTMLInputElement>('code');
const submit = element<HTMLButtonElement>('submit');
const cancel = element<HTMLButtonElement>('cancel');
const error = element<HTMLElement>('error');
const summary = element<HTMLElement>('summary');
const base = fragment === null ? '' : `/three-d-secure/challenges/${encodeURIComponent(fragment.challengeId)}`;
let finished = false;

function tell(type: ChallengeMessage['type']): void {
  if (fragment === null) return;
  const message: ChallengeMessage = { source: CHALLENGE_MESSAGE_SOURCE, challengeId: fragment.challengeId, type };
  const checkout: Window | null = window.opener ?? (window.parent === window ? null : window.parent);
  checkout?.postMessage(message, fragment.parentOrigin);
}

function showError(text: string): void {
  error.textContent = text;
  input.setAttribute('aria-invalid', text === '' ? 'false' : 'true');
}

function setBusy(busy: boolean): void {
  submit.disabled = busy;
  input.readOnly = busy;
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function load(): Promise<void> {
  const response = fragment === null ? null : await fetch(base).catch(() => null);
  const details = response?.ok === true ? ((await response.json()) as ChallengeDetails) : null;
  if (details === null || details.state !== 'pending') {
    finished = true;
    summary.textContent = messages.unavailable;
    setBusy(true);
    cancel.focus();
    tell('failed');
    return;
  }
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: details.currencyIsoCode }).format(
    Number(details.amount),
  );
  summary.textContent = messages.summary(amount, messages.card(details.cardType, details.lastFour));
  input.focus();
  tell('ready');
}

async function answer(): Promise<void> {
  const code = input.value.trim();
  if (code === '') {
    showError(messages.codeMissing);
    input.focus();
    return;
  }
  showError('');
  error.textContent = messages.checking;
  setBusy(true);
  const response = await post('/answer', { code }).catch(() => null);
  if (response?.ok !== true) {
    setBusy(false);
    showError(messages.network);
    input.focus();
    return;
  }
  finished = true;
  tell('complete');
}

async function cancelChallenge(): Promise<void> {
  if (finished) {
    tell('cancelled');
    return;
  }
  finished = true;
  setBusy(true);
  cancel.disabled = true;
  // The page reports the cancellation even when the sandbox cannot be told: the shopper asked to leave.
  await post('/cancel', {}).catch(() => null);
  tell('cancelled');
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!finished) void answer();
});
cancel.addEventListener('click', () => void cancelChallenge());
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    event.preventDefault();
    void cancelChallenge();
    return;
  }
  if (event.key !== 'Tab') return;
  // Focus stays in the challenge: Tab from the last control goes to the first, Shift+Tab from the first to the last.
  const controls = [input, submit, cancel].filter((control) => !control.hasAttribute('disabled'));
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (first === undefined || last === undefined) return;
  if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  } else if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  }
});
void load();
