import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { startTheme } from './theme/theme.ts';
import '@kassa/checkout/styles.css';
import './styles/app.css';

// Before the first render, so the page never flashes in the other theme.
startTheme();
const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
