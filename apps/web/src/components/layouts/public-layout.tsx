import { Link, Outlet } from 'react-router';
import { Button } from '@/components/ui/button';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME } from '@/config/brand';

const links = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];

/** Header, page content and footer of the public pages (seed §2 "Public layout"). */
export function PublicLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 font-semibold">
            <img src={LOGO_SRC} alt={LOGO_ALT} className="size-8" />
            <span>{PRODUCT_NAME}</span>
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1">
            {links.map((link) => (
              <Button key={link.to} asChild variant="ghost" size="sm">
                <Link to={link.to}>{link.label}</Link>
              </Button>
            ))}
            <Button asChild size="sm">
              <Link to="/auth/signin">Sign In</Link>
            </Button>
          </nav>
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
