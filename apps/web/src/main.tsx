// First: zod must be told before any schema exists (see the module).
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme, readTheme } from './lib/theme';
import './index.css';

// The theme class goes on <html> before the first paint, so a dark page never flashes light.
applyTheme(readTheme());

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
