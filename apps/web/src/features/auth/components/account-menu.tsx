import { KeyRound, LogOut, Pencil, UserRound } from 'lucide-react';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { selectIsAuthenticated, selectUserDetails } from '@/lib/signed-in/auth-slice';
import { displayName, handle, initials } from '@/lib/user-display';
import { useSignOut } from '../hooks/use-sign-out';

/** The account menu of docs/product/web.md §2. */
export function AccountMenu() {
  const details = useSelector(selectUserDetails);
  const signedIn = useSelector(selectIsAuthenticated);
  const navigate = useNavigate();
  const { signOut, signingOut } = useSignOut();
  const name = displayName(details, signedIn);

  return (
    // Not modal: a modal menu hides the page from assistive technology while its sidebar links stay
    // focusable (axe aria-hidden-focus); focus still moves into the menu and Escape closes it.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          className="h-9 gap-2 px-1.5"
          aria-label={`Account menu for ${name}`}
        >
          <Avatar aria-hidden="true">{initials(details, signedIn)}</Avatar>
          <span className="hidden text-sm font-medium sm:inline">{name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56" regionLabel="Account">
        <DropdownMenuLabel className="flex items-center gap-2 font-normal">
          <Avatar aria-hidden="true">{initials(details, signedIn)}</Avatar>
          <span className="grid min-w-0 text-left leading-tight">
            <span className="truncate text-sm font-medium">{name}</span>
            <span className="truncate text-xs text-muted-foreground">{handle(details)}</span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/app/account/view')}>
          <UserRound /> View Account
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/app/account/edit')}>
          <Pencil /> Edit Account
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/app/account/change-password')}>
          <KeyRound /> Change Password
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signingOut}
          onSelect={(event) => {
            event.preventDefault();
            void signOut();
          }}
        >
          <LogOut /> {signingOut ? 'Signing Out...' : 'Sign Out'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
