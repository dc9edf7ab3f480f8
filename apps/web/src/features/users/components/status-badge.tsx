import type { UserStatus } from '@pa/contracts/users';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const styles: Record<UserStatus, string> = {
  active: 'border-emerald-600/40 text-emerald-800 dark:text-emerald-300',
  inactive: 'text-muted-foreground',
  // red-700 keeps 4.5:1 on a selected (muted) row too.
  locked: 'border-destructive/50 text-red-700 dark:text-red-300',
};

export function StatusBadge({ status }: { status: UserStatus }) {
  return (
    <Badge variant="outline" className={cn('capitalize', styles[status])}>
      {status}
    </Badge>
  );
}
