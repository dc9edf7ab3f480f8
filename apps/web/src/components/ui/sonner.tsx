import type * as React from 'react';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from '@/components/theme-provider';
import { TOAST } from '@/config/constants';

/**
 * Toast area of docs/product/web.md §2/§9: top-right (offset below the top bar), expanded, rich colours, close button, 4000 ms, 3 visible,
 * 14 px gap, 356 px wide, Alt+T. Sonner fixes its swipe threshold (45 px) and removal delay (200 ms)
 * internally at exactly the seed's values.
 */
function Toaster(props: React.ComponentProps<typeof Sonner>) {
  const { theme } = useTheme();
  // A landmark of its own, so assistive technology finds the toasts (axe "region").
  return (
    <aside aria-label="Notifications">
      <Sonner
        theme={theme}
        position="top-right"
        // Below the top bar (56 px shell, 64 px public header), so toasts never cover its buttons.
        offset={{ top: TOAST.offsetTop, right: TOAST.offsetSide }}
        mobileOffset={{
          top: TOAST.offsetTop,
          right: TOAST.mobileOffsetSide,
          left: TOAST.mobileOffsetSide,
        }}
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
    </aside>
  );
}

export { Toaster };
