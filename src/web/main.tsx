// Mantine's global styles; each component's CSS comes with the chunk using it (vite.config.ts).
import 'virtual:mantine-styles';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
