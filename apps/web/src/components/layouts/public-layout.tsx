import { Menu } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { ThemeMenu } from '@/components/theme-menu';
import { Button } from '@/components/ui/button';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from '@/components/ui/sheet';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME } from '@/config/brand';
import { cn } from '@/lib/utils';

const links = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];

/** Header, page content and footer of the public pages (docs/product/web.md §2 "Public layout"). */
export function PublicLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
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
              {links.map((link) => (
                <Button key={link.to} asChild variant="ghost" size="sm">
                  <NavLink to={link.to} end>
                    {link.label}
                  </NavLink>
                </Button>
              ))}
              <Button asChild size="sm">
                <Link to="/auth/signin">Sign In</Link>
              </Button>
            </nav>
            <ThemeMenu />
            <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
              <SheetTrigger asChild>
                <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
                  <Menu />
                </Button>
              </SheetTrigger>
              {/* About 3/5 of the screen width, at most "small" (docs/product/web.md §2). */}
              <SheetContent side="right" className="w-3/5 max-w-sm">
                <SheetHeader>
                  <SheetTitle>{PRODUCT_NAME}</SheetTitle>
                  <SheetDescription className="sr-only">Site navigation</SheetDescription>
                </SheetHeader>
                <nav aria-label="Mobile" className="flex flex-col gap-1 px-4">
                  {[...links, { to: '/auth/signin', label: 'Sign In' }].map((link) => (
                    <NavLink
                      key={link.to}
                      to={link.to}
                      end
                      onClick={() => setMenuOpen(false)}
                      className={({ isActive }) =>
                        cn(
                          'rounded-md px-3 py-2 text-sm font-medium hover:bg-accent',
                          isActive && 'bg-accent',
                        )
                      }
                    >
                      {link.label}
                    </NavLink>
                  ))}
                </nav>
              </SheetContent>
            </Sheet>
          </div>
        </div>
      </header>
      <main className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <footer className="border-t py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </footer>
    </div>
  );
}
