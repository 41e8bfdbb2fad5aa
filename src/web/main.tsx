// First: schemas built by any later import must see it (see the module).
import './lib/zod-without-eval';
// Mantine's global styles; each component's CSS comes with the chunk using it (vite.config.ts).
import 'virtual:mantine-styles';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n';
import { App } from './app/App';
import { adoptPrerenderedBanner } from './features/cookies/prerendered';

adoptPrerenderedBanner();

// A transition: React renders the app in slices of a few milliseconds, yielding to the browser in
// between, instead of one long task that blocks input (Lighthouse's Total Blocking Time).
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
