// The app itself (React, every page, the checkout), imported by main.tsx once it has started what the page needs
// from the server.
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">');
const root = createRoot(container);
// The first render in one go, its effects included, rather than in slices that each wait for the browser's next turn:
// on a checkout URL whose order has arrived (main.tsx asked first) it draws the card form and mounts its frames at
// once (issue 10).
flushSync(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
