import { Link, useLocation } from 'react-router';
import { ErrorPage } from '@/components/layouts/error-page';
import { Button } from '@/components/ui/button';

export function NotFoundRoute() {
  // Inside the shell "home" is the dashboard; on the public site it is the landing page.
  const inApp = useLocation().pathname.startsWith('/app');
  return (
    <ErrorPage
      status={404}
      title="Page not found"
      className="flex-1"
      statusClassName="text-primary"
      action={
        <Button asChild>
          <Link to={inApp ? '/app' : '/'}>Go home</Link>
        </Button>
      }
    >
      The page you are looking for does not exist or has moved.
    </ErrorPage>
  );
}
