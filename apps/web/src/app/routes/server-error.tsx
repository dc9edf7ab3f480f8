import { useRouteError } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';

/** Shown for any routing error (docs/product/web.md §2: "Any routing error shows a server-error page"). */
export function ServerErrorRoute() {
  const error = useRouteError();
  console.error(error);
  return (
    <section className="mx-auto flex min-h-svh max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <PageTitle title="Something went wrong" />
      <p className="text-6xl font-bold text-destructive">500</p>
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-muted-foreground">
        An unexpected error occurred. Please reload the page or try again later.
      </p>
      <Button onClick={() => window.location.assign('/')}>Back to home</Button>
    </section>
  );
}
