import { cn } from '@/lib/utils';

/**
 * Seed §2: a full-screen centred ring, coloured for the theme, one linear rotation per second,
 * endless, 16 units (4rem) across.
 */
function FullScreenSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      data-slot="full-screen-spinner"
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-background"
    >
      <Spinner className="size-16" />
      <span className="text-sm text-muted-foreground">{label}</span>
    </div>
  );
}

function Spinner({ className }: { className?: string }) {
  return (
    <span
      data-slot="spinner"
      aria-hidden="true"
      className={cn(
        'inline-block animate-spin rounded-full border-4 border-gray-300 border-t-gray-900 [animation-duration:1s] [animation-timing-function:linear] dark:border-gray-700 dark:border-t-gray-100',
        className,
      )}
    />
  );
}

export { FullScreenSpinner, Spinner };
