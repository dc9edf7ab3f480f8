import { useState } from 'react';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from '@/components/ui/sheet';
import { PRODUCT_NAME } from '@/config/brand';
import { cn } from '@/lib/utils';
import { MobileMenuButton } from './mobile-menu-button';
import { usePublicLinks } from './public-links';
import { PUBLIC_NAV } from './public-nav';

/** The slide-out navigation of the public pages on narrow screens (docs/product/web.md §2). */
export function PublicMobileMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const { NavLink } = usePublicLinks();
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <MobileMenuButton />
      </SheetTrigger>
      {/* About 3/5 of the screen width, at most "small" (docs/product/web.md §2). */}
      <SheetContent side="right" className="w-3/5 max-w-sm">
        <SheetHeader>
          <SheetTitle>{PRODUCT_NAME}</SheetTitle>
          <SheetDescription className="sr-only">Site navigation</SheetDescription>
        </SheetHeader>
        <nav aria-label="Mobile" className="flex flex-col gap-1 px-4">
          {[...PUBLIC_NAV, { to: '/auth/signin', label: 'Sign In' }].map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              onClick={() => setOpen(false)}
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
  );
}
