import type * as React from 'react';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from '@/components/theme-provider';
import { TOAST } from '@/config/constants';

/**
 * Toast area of seed §2/§9: top-right, expanded, rich colours, close button, 4000 ms, 3 visible,
 * 14 px gap, 356 px wide, Alt+T. Sonner fixes its swipe threshold (45 px) and removal delay (200 ms)
 * internally at exactly the seed's values.
 */
function Toaster(props: React.ComponentProps<typeof Sonner>) {
  const { theme } = useTheme();
  return (
    <Sonner
      theme={theme}
      position="top-right"
      expand
      richColors
      closeButton
      duration={TOAST.duration}
      visibleToasts={TOAST.visibleToasts}
      gap={TOAST.gap}
      hotkey={[...TOAST.hotkey]}
      className="toaster group"
      style={
        {
          '--width': `${TOAST.width}px`,
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
