import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { downloadRecoveryCodes } from '../lib/recovery-file';

/** The recovery codes, shown once: to download or write down before moving on. */
export function RecoveryCodes({
  codes,
  userName,
  onDone,
  doneLabel = 'I have saved them',
}: {
  codes: string[];
  userName: string;
  onDone: () => void;
  doneLabel?: string;
}) {
  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-4">
      <h3 id="recovery-codes-title" className="font-semibold">
        Your recovery codes
      </h3>
      <p className="text-sm text-muted-foreground">
        Each code signs you in once when your app is not at hand. They are shown only now: download
        them or write them down, and keep them somewhere safe.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-muted px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() => downloadRecoveryCodes(codes, userName)}
        >
          <Download aria-hidden="true" />
          Download as text
        </Button>
        <Button type="button" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </section>
  );
}
