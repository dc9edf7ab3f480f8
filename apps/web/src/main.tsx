import { StrictMode } from 'react';
import { z } from 'zod';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme, readTheme } from './lib/theme';
import './index.css';

// Zod would probe `new Function('')` to compile fast parsers; the CSP (script-src without
// 'unsafe-eval') blocks that and reports a violation, so zod runs without its JIT.
z.config({ jitless: true });

// The theme class goes on <html> before the first paint, so a dark page never flashes light.
applyTheme(readTheme());

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
