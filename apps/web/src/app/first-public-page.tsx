import { useMemo, type ReactNode } from 'react';
import { PublicFrame } from '@/components/layouts/public-frame';
import {
  PublicLinksProvider,
  type PublicLinkProps,
  type PublicLinks,
  type PublicNavLinkProps,
} from '@/components/layouts/public-links';
import { ThemeProvider } from '@/components/theme-provider';

interface FirstPublicPageProps {
  /** Loads the app (router, store, session) and shows `to` in it. */
  onNavigate: (to: string) => void;
  /** The visitor is likely to leave the page soon: start loading the app. */
  onIntent: () => void;
  children: ReactNode;
}

/**
 * A public page (the landing page, the sign-in form) for a signed-out visitor's first load, rendered
 * before the router and the store are loaded (main.tsx): the same page, whose links hand over to
 * the app. A click with a modifier (new tab, new window) is left to the browser, like React Router's
 * links do.
 */
export function FirstPublicPage({ onNavigate, onIntent, children }: FirstPublicPageProps) {
  const links = useMemo(() => firstPageLinks(onNavigate, onIntent), [onNavigate, onIntent]);
  return (
    <ThemeProvider>
      <PublicLinksProvider value={links}>
        <PublicFrame>{children}</PublicFrame>
      </PublicLinksProvider>
    </ThemeProvider>
  );
}

function firstPageLinks(
  onNavigate: FirstPublicPageProps['onNavigate'],
  onIntent: FirstPublicPageProps['onIntent'],
): PublicLinks {
  const Link = ({ to, onClick, children, ...props }: PublicLinkProps) => (
    <a
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        onNavigate(to);
      }}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      {...props}
    >
      {children}
    </a>
  );
  const NavLink = ({ className, ...props }: PublicNavLinkProps) => {
    const isActive = props.to === window.location.pathname;
    const classes = typeof className === 'function' ? className({ isActive }) : className;
    return (
      <Link
        {...props}
        className={isActive ? `${classes ?? ''} active`.trim() : classes}
        aria-current={isActive ? 'page' : undefined}
      />
    );
  };
  return { Link, NavLink };
}
