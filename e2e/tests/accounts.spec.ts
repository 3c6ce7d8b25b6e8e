import { expect, test } from '@playwright/test';
import { mailsTo, signUpLink } from '../support/outbox.ts';
import { cards, DEMO_SAVED_CARD, Shopper, uniqueEmail } from '../support/shopper.ts';

test('a new shopper signs up and pays', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.signUp('Margaret Hamilton', `margaret-${Date.now()}@kassa.test`, 'apollo-guidance-11');
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesReceipt();
});

test('sign-up answers a new and an existing email alike (status, body, page); the mail says which', async ({ page }) => {
  const shopper = new Shopper(page);
  const existing = 'shopper@kassa.test';
  const fresh = uniqueEmail('grace');
  const answers: { status: number; body: string; page: string }[] = [];
  for (const email of [existing, fresh]) {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/accounts') && r.request().method() === 'POST');
    await shopper.asksToSignUp('Grace Hopper', email, 'cobol-compiler-1959');
    const response = await answered;
    answers.push({
      status: response.status(),
      body: await response.text(),
      page: ((await page.getByRole('status').textContent()) ?? '').replace(email, 'EMAIL'),
    });
  }
  expect(answers[0]?.status).toBe(202);
  expect(answers[1]).toEqual(answers[0]);

  // That both take the same time is checked on the server (security/sign-up.test.ts: paired timings, alternated):
  // a browser's timings on a machine running e2e workers beside the servers are too noisy to tell.

  expect((await mailsTo(page.request, existing))[0]?.subject).toBe('You already have a Kassa account');
  await page.goto(await signUpLink(page.request, fresh));
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByText('Signed in as Grace Hopper')).toBeAttached();
  // The link works once.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(await signUpLink(page.request, fresh));
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This link has expired or was already used. Sign up again, or sign in if you finished already.',
  );
});

test('the demo shopper signs in, pays, signs out, and the order is then out of reach', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.signIn('shopper@kassa.test', 'kassa-demo-shopper');
  await shopper.startCheckoutOfNewOrder();
  // The demo shopper starts with a saved card (seeded at start): it pays without typing.
  await shopper.payWithSavedCard(DEMO_SAVED_CARD);
  const orderId = await shopper.seesReceipt();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.goto(`/orders/${orderId}/receipt`);
  await expect(page.getByRole('alert')).toHaveText('We could not find this order.');
});

test("a guest's order is invisible to another browser", async ({ page, browser, baseURL }) => {
  // The guest's order through the API the cart uses (this browser's cookie): the shop's pages are not the subject.
  const order = await new Shopper(page).ordersThroughApi();
  const checkoutUrl = `${baseURL}/checkout/${order.id}`;

  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(checkoutUrl);
  await expect(strangerPage.getByRole('alert')).toHaveText('We could not find this order.');
  const response = await strangerPage.request.get(checkoutUrl.replace('/checkout/', '/api/orders/'));
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  await stranger.close();
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('shopper@kassa.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That email and password do not match an account.');
});
