import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * A card that is the page's one task (a form, a sign-in step): its title is the page's heading
 * (h1), a line under it says what the card is for, and `children` follow.
 */
export function PageCard({
  title,
  description,
  className,
  contentClassName,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  className?: string;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle level={1}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
