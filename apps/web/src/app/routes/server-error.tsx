import { useRouteError } from 'react-router';
import { ErrorPage } from '@/components/layouts/error-page';
import { Button } from '@/components/ui/button';

/** Shown for any routing error (docs/product/web.md §2: "Any routing error shows a server-error page"). */
export function ServerErrorRoute() {
  const error = useRouteError();
  console.error(error);
  return (
    <ErrorPage
      status={500}
      title="Something went wrong"
      className="min-h-svh"
      statusClassName="text-destructive"
      action={<Button onClick={() => window.location.assign('/')}>Back to home</Button>}
    >
      An unexpected error occurred. Please reload the page or try again later.
    </ErrorPage>
  );
}
