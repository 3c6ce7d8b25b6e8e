// The payments list as the merchant last saw it (its query string), so a payment's "All payments" link goes back to
// the filtered list they came from, as dashboards do. Kept for the tab (sessionStorage), so a reload keeps it too.
const storageKey = 'kassa.admin.paymentsList';

export function rememberPaymentsList(search: string): void {
  window.sessionStorage.setItem(storageKey, search);
}

export function paymentsListPath(): string {
  const search = window.sessionStorage.getItem(storageKey) ?? '';
  // Only a query string of our own list is followed (it is put back into a path of this site).
  return search.startsWith('?') ? `/admin/payments${search}` : '/admin/payments';
}
