// The entry: small, so it runs as soon as its few modules have arrived. It asks the server for what the page needs
// before the app's modules (React DOM, the pages, the checkout: most of the download) have arrived and run (issue 10);
// the HTML preloads those beside it (vite.config.ts), so they are not fetched one after the other.
import '@kassa/checkout/styles.css';
import './styles/app.css';
import { steadyBrowserLanguages } from './i18n/browser-languages.ts';
import { startCheckoutLoad } from './pages/checkout/checkout-data.ts';
import { startTheme } from './theme/theme.ts';

// Before any module of the app reads them: a tag Intl refuses ("en-US@posix") stopped the dashboard's charts' module.
steadyBrowserLanguages(window.navigator);
// Before the first render, so the page never flashes in the other theme.
startTheme();
// The checkout's order and client token are asked for now rather than once its page has rendered.
startCheckoutLoad(window.location.pathname);
void import('./render.tsx');
