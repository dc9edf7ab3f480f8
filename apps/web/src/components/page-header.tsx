import type * as React from 'react';
import { PageTitle } from '@/components/page-title';

/**
 * A page's h1, its description, then its actions in a row of their own at every width: beside the
 * title they squeezed it into two lines (a user's page, five actions) and sat at the top right,
 * where toasts appear (docs/product/web.md §2) and covered them.
 */
export function PageHeader({
  title,
  description,
  actions,
  actionsLabel,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  /** Names the actions as a group ("User actions"). */
  actionsLabel?: string;
}) {
  return (
    <div className="flex flex-col gap-3">
      <PageTitle title={title} />
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? (
        <div
          className="flex flex-wrap gap-2"
          {...(actionsLabel && { role: 'group', 'aria-label': actionsLabel })}
        >
          {actions}
        </div>
      ) : null}
    </div>
  );
}
