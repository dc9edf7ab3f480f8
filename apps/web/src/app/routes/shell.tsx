import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { CommandPalette } from '@/features/command-palette/command-palette';
import { AccountMenu } from '@/features/auth/components/account-menu';

/** The protected shell with its account menu; loaded only once a signed-in page is opened. */
export function ShellRoute() {
  return <DashboardLayout accountMenu={<AccountMenu />} commandPalette={<CommandPalette />} />;
}
