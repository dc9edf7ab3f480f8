import type * as React from 'react';
import { onDemand } from '@/components/on-demand';
import { ThemeMenuButton } from '@/components/theme-menu-button';
import { Button } from '@/components/ui/button';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME } from '@/config/brand';
import { MobileMenuButton } from './mobile-menu-button';
import { usePublicLinks } from './public-links';
import { PUBLIC_NAV } from './public-nav';

// The header's two menus load their code when first used (see onDemand).
const ThemeMenu = onDemand(() => import('@/components/theme-menu').then((m) => m.ThemeMenu));
const MobileMenu = onDemand(() => import('./public-mobile-menu').then((m) => m.PublicMobileMenu));

/** Header, page content and footer of the public pages (docs/product/web.md §2 "Public layout"). */
export function PublicFrame({ children }: { children: React.ReactNode }) {
  const { Link, NavLink } = usePublicLinks();
  return (
    <div className="flex min-h-svh flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 font-semibold">
            <img src={LOGO_SRC} alt={LOGO_ALT} className="size-8" />
            <span>{PRODUCT_NAME}</span>
          </Link>
          <div className="flex items-center gap-1">
            <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
              {PUBLIC_NAV.map((link) => (
                <Button key={link.to} asChild variant="ghost" size="sm">
                  <NavLink to={link.to}>{link.label}</NavLink>
                </Button>
              ))}
              <Button asChild size="sm">
                <Link to="/auth/signin">Sign In</Link>
              </Button>
            </nav>
            <ThemeMenu
              trigger={(props) => (
                <ThemeMenuButton aria-haspopup="menu" aria-expanded={false} {...props} />
              )}
            />
            <MobileMenu
              trigger={(props) => (
                <MobileMenuButton aria-haspopup="dialog" aria-expanded={false} {...props} />
              )}
            />
          </div>
        </div>
      </header>
      <main className="flex flex-1 flex-col">{children}</main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </footer>
    </div>
  );
}
