import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { FirstForgotPassword } from './app/first-forgot-password';
import { FirstPublicPage } from './app/first-public-page';
import { FirstSignIn } from './app/first-sign-in';
import { LandingPage } from './app/routes/landing-page';
import { FullScreenSpinner } from './components/ui/spinner';
import {
  FORGOT_PASSWORD_PATH,
  handOver,
  SIGN_IN_PATH,
  type FirstPageHandoff,
} from './lib/first-page-handoff';
import { mayHaveSignIn } from './lib/signed-in/persisted-sign-in';
import { applyTheme, readTheme } from './lib/theme';
import './index.css';

// The theme class goes on <html> before the first paint, so a dark page never flashes light.
applyTheme(readTheme());

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');
const root = createRoot(container);

/*
 * First load (docs/benchmarks/first-load.md): the router, the store and the request layer are
 * one chunk of their own. A signed-out visitor's landing page and sign-in page render without them
 * and load them when the visitor starts to act (a link hovered, the form typed in); the app takes
 * over when a link is followed or the form sent. Every other page starts with them.
 */
const importApp = () => import('./app/app');
let appModule: ReturnType<typeof importApp> | undefined;
const loadApp = () => (appModule ??= importApp());

let started: Promise<void> | undefined;
/** Starts the app once, whatever else is clicked while its code loads. */
const startApp = (navigateTo?: string) => (started ??= runApp(navigateTo));

async function runApp(navigateTo?: string) {
  // The sign-in pages' code is fetched beside the app's, not after it (the router asks for it only
  // once the app runs): they are the pages most often opened directly.
  if ((navigateTo ?? window.location.pathname).startsWith('/auth/'))
    void import('./app/routes/auth');
  const { App, routerReady, startRouter } = await loadApp();
  if (navigateTo && navigateTo !== window.location.pathname) {
    window.history.pushState(null, '', navigateTo);
  }
  const router = startRouter();
  // After a click on a first page, the page stays until the next one is ready.
  if (navigateTo) await routerReady(router);
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

/** A first page's link or button: the app shows `to`; without its code, a full page load of it. */
const navigate = (to: string) => void startApp(to).catch(() => window.location.assign(to));
const onIntent = () => void loadApp();

/** The pages a signed-out visitor's first load draws before the app; the form ones hand over. */
const onHandOver = (handoff: FirstPageHandoff) => {
  handOver(handoff);
  navigate(handoff.path);
};
const firstPages: Record<string, () => ReactNode> = {
  '/': () => <LandingPage signedIn={false} />,
  [SIGN_IN_PATH]: () => <FirstSignIn onIntent={onIntent} onHandOver={onHandOver} />,
  [FORGOT_PASSWORD_PATH]: () => <FirstForgotPassword onIntent={onIntent} onHandOver={onHandOver} />,
};

const firstPage = firstPages[window.location.pathname];
if (firstPage && !mayHaveSignIn()) {
  root.render(
    <StrictMode>
      <FirstPublicPage onIntent={onIntent} onNavigate={navigate}>
        {firstPage()}
      </FirstPublicPage>
    </StrictMode>,
  );
} else {
  // The app's own loading state (the router's fallback), shown while its code arrives.
  root.render(<FullScreenSpinner />);
  void startApp();
}
