// The payments list as the merchant last saw it (its query string), so a payment's "All payments" link goes back to
// the filtered list they came from, as dashboards do. In memory: a reload starts from the whole list.
let lastQuery = '';

export function rememberPaymentsList(search: string): void {
  lastQuery = search;
}

export function paymentsListPath(): string {
  return `/admin/payments${lastQuery}`;
}
