import type { UserDetails } from '@pa/contracts/accounts';

type Details = Partial<UserDetails> | null | undefined;

/** Full name, falling back to the user name, then "User"; "Guest User" when signed out (docs/product/web.md §2). */
export function displayName(details: Details, signedIn: boolean): string {
  if (!signedIn || !details) return 'Guest User';
  const full = [details.userFirstName, details.userLastName].filter(Boolean).join(' ').trim();
  return full || details.userName || 'User';
}

/** "@" + user name, or "guest". */
export function handle(details: Details): string {
  return details?.userName ? `@${details.userName}` : 'guest';
}

export function initials(details: Details, signedIn: boolean): string {
  const name = displayName(details, signedIn);
  const parts = name.split(/\s+/).filter(Boolean);
  const letters =
    parts.length >= 2 ? `${parts[0]![0]}${parts[parts.length - 1]![0]}` : name.slice(0, 2);
  return letters.toUpperCase();
}
