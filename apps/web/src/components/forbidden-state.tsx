import { ShieldX } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageTitle } from '@/components/page-title';

/** The 403 state of a page the signed-in user may not open (never a blank table). */
export function ForbiddenState({ need, what }: { need: readonly string[]; what: string }) {
  return (
    <section
      aria-labelledby="forbidden-title"
      className="mx-auto grid max-w-lg justify-items-center gap-3 rounded-xl border p-8 text-center"
    >
      <PageTitle title="Access denied" />
      <ShieldX aria-hidden="true" className="size-10 text-destructive" />
      <p className="text-sm font-medium text-muted-foreground">Error 403</p>
      <h1 id="forbidden-title" className="text-xl font-semibold">
        You do not have access to {what}
      </h1>
      <p className="text-sm text-muted-foreground">
        {need.length
          ? `This page needs the ${need.map((c) => `“${c}”`).join(' and ')} permission${need.length > 1 ? 's' : ''}. `
          : ''}
        Ask an administrator of your company to give it to you.
      </p>
      <Button asChild variant="outline">
        <Link to="/app">Back to the dashboard</Link>
      </Button>
    </section>
  );
}
