import { expect, type Page } from '@playwright/test';

export interface HeaderLayout {
  /** The logo's drawn width: a squeezed flex item draws it narrower, down to nothing. */
  logoWidth: number;
  /** The brand's drawn contents (the logo and the shop's name) end before the Cart link begins. */
  brandClearOfCart: boolean;
  /** The theme button and the account area share the nav's row (false: they went to a second row). */
  toolsBesideNav: boolean;
  sidewaysScroll: boolean;
}

/** How the shop's header (the dashboard's too) is laid out at the page's current width. */
export function headerLayout(page: Page): Promise<HeaderLayout> {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector);
      if (element === null) throw new Error(`no ${selector} in the header`);
      return element.getBoundingClientRect();
    };
    // A range over the brand's contents, not the brand's box: a shrunk flex item's text overflows its box's edge.
    const brand = document.createRange();
    brand.selectNodeContents(document.querySelector('.brand') as Node);
    return {
      logoWidth: box('.brand-logo').width,
      brandClearOfCart: brand.getBoundingClientRect().right <= box('.app-nav a[href="/cart"]').left,
      toolsBesideNav: box('.header-tools').top < box('.app-nav').bottom,
      sidewaysScroll: document.documentElement.scrollWidth > window.innerWidth,
    };
  });
}

/**
 * The account menu by keyboard alone, from its button focused and the menu closed: Enter opens it, Tab goes to Account,
 * then Sign out, then out of it (which closes it), and Shift+Tab comes back to its button.
 */
export async function tabsThroughAccountMenu(page: Page): Promise<void> {
  const header = page.getByRole('banner');
  const menuButton = header.getByRole('button', { name: 'Account menu' });
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(header.getByRole('link', { name: 'Account', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(header.getByRole('button', { name: 'Sign out' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Shift+Tab');
  await expect(menuButton).toBeFocused();
}

/**
 * The account menu opened by its button, from closed: it says it is open, shows who is signed in, and keeps the
 * header's one row with no sideways scroll.
 */
export async function opensAccountMenu(page: Page, signedIn: { name: string; email: string }): Promise<void> {
  const header = page.getByRole('banner');
  const menuButton = header.getByRole('button', { name: 'Account menu' });
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await expect(header.getByText(`Signed in as ${signedIn.name}`)).toBeVisible();
  await expect(header.getByText(signedIn.email)).toBeVisible();
  expect(await headerLayout(page)).toMatchObject({ toolsBesideNav: true, sidewaysScroll: false });
}
