import { useState } from 'react';
import { passkeysUnavailable } from '@/lib/passkey-support';

/**
 * Why passkeys cannot work on this page (an IP address, plain http, an old browser), or null. Read
 * once: the address does not change under a page.
 */
export function usePasskeysUnavailable(): string | null {
  const [reason] = useState(() => passkeysUnavailable());
  return reason;
}

/** The reason under a disabled passkey button, which names it in `aria-describedby`. */
export function PasskeyUnavailableNote({ id, reason }: { id: string; reason: string }) {
  return (
    <p id={id} data-slot="passkey-unavailable" className="text-sm text-muted-foreground">
      {reason}
    </p>
  );
}
