import type * as React from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { missingPermissionText, type PermissionCode } from '@/lib/permission-gate';

type GatedButtonProps = React.ComponentProps<typeof Button> & {
  need: PermissionCode | readonly PermissionCode[];
  /** Navigates here when allowed. */
  to?: string;
  /** Hide instead of disabling when the permission is missing. */
  hideWhenMissing?: boolean;
  /** Another reason the action is unavailable (a protected row); shown the same way. */
  blockedReason?: string | null;
};

/**
 * A button (or link button) the signed-in user may lack the permission for: then it is disabled and
 * a tooltip (shown at once, also on keyboard focus) names the missing permission.
 */
export function GatedButton({
  need,
  to,
  hideWhenMissing,
  blockedReason,
  children,
  ...props
}: GatedButtonProps) {
  const missing = useMissingPermissions(need);
  const reason = missing.length ? missingPermissionText(missing) : blockedReason;
  if (!reason) {
    return to ? (
      <Button asChild {...props}>
        <Link to={to}>{children}</Link>
      </Button>
    ) : (
      <Button {...props}>{children}</Button>
    );
  }
  if (missing.length && hideWhenMissing) return null;
  return (
    <DisabledWithReason
      reason={reason}
      button={
        <Button {...props} disabled>
          {children}
        </Button>
      }
    />
  );
}

/** A disabled control wrapped so it can still take focus and explain itself in a tooltip. */
export function DisabledWithReason({
  reason,
  button,
}: {
  reason: string;
  button: React.ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled control cannot take focus; this wrapper does, so keyboard users reach the tooltip saying why
          tabIndex={0}
          className="inline-flex rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
          data-disabled-reason={reason}
        >
          {button}
          <span className="sr-only">{reason}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent className="max-w-72">{reason}</TooltipContent>
    </Tooltip>
  );
}
