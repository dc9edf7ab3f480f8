/** Dates as people read them in the admin screens ("24 Nov 2026, 14:05"); empty → "—". */
export function formatDateTime(iso: string | null | undefined): string {
  return iso
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : '—';
}

export const fullName = (u: { userFirstName: string; userLastName: string }) =>
  `${u.userFirstName} ${u.userLastName}`.trim();
