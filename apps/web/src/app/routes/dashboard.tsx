import { KeyRound, ShieldCheck, Users, Zap, type LucideIcon } from 'lucide-react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { selectIsAuthenticated, selectUserDetails } from '@/lib/signed-in/auth-slice';
import { displayName } from '@/lib/user-display';
import { visibleNavItems } from '@/config/navigation';
import { useHeldPermissions } from '@/hooks/use-held-permissions';

const tiles: { to: string; title: string; text: string; icon: LucideIcon; permission?: string }[] =
  [
    {
      to: '/app/power7',
      title: 'Power 7',
      text: 'Upload customer tickets, analyse every draw, list and download winners.',
      icon: Zap,
    },
    {
      to: '/app/company/users',
      title: 'Users',
      text: 'People of your company and their roles.',
      icon: Users,
      permission: 'users.read',
    },
    {
      to: '/app/company/roles',
      title: 'Roles',
      text: 'Groups of permissions given to users.',
      icon: ShieldCheck,
      permission: 'roles.read',
    },
    {
      to: '/app/company/permissions',
      title: 'Permissions',
      text: 'What each role may do.',
      icon: KeyRound,
      permission: 'permissions.read',
    },
  ];

export function DashboardRoute() {
  const details = useSelector(selectUserDetails);
  const signedIn = useSelector(selectIsAuthenticated);
  const held = useHeldPermissions();
  return (
    <div className="grid gap-6">
      <PageTitle title="Dashboard" />
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
        <p className="text-muted-foreground">
          Welcome, {displayName(details, signedIn)}
          {details?.companyName ? ` — ${details.companyName}` : ''}.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {visibleNavItems(tiles, held).map((tile) => (
          <Link
            key={tile.to}
            to={tile.to}
            className="rounded-xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
          >
            <Card className="h-full transition-colors hover:bg-accent/50">
              <CardHeader>
                <tile.icon className="size-6 text-primary" aria-hidden="true" />
                <CardTitle className="text-lg">
                  <span>{tile.title}</span>
                </CardTitle>
                <CardDescription>{tile.text}</CardDescription>
              </CardHeader>
            </Card>
          </Link>
        ))}
      </div>
    </div>
  );
}
