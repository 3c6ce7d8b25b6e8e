import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { startCheckoutLoad } from './pages/checkout/checkout-data.ts';
import { startTheme } from './theme/theme.ts';
import '@kassa/checkout/styles.css';
import './styles/app.css';

// Before the first render, so the page never flashes in the other theme.
startTheme();
// The checkout's order and client token are asked for now rather than once its page has rendered (issue 10).
startCheckoutLoad(window.location.pathname);
const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
