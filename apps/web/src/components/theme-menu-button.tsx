import { Moon, Sun } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';

/** The theme menu's trigger (sun in light, moon in dark), shared by the menu and its on-demand stub. */
export function ThemeMenuButton(props: React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="size-8" aria-label="Toggle theme" {...props}>
      <Sun className="scale-100 rotate-0 transition-all dark:scale-0 dark:-rotate-90" />
      <Moon className="absolute scale-0 rotate-90 transition-all dark:scale-100 dark:rotate-0" />
    </Button>
  );
}
