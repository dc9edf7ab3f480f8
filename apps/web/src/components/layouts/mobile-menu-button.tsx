import { Menu } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';

/** The public header's menu button on narrow screens; shared by the sheet and its on-demand stub. */
export function MobileMenuButton(props: React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" {...props}>
      <Menu />
    </Button>
  );
}
