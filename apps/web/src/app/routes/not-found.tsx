import { Link, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';

export function NotFoundRoute() {
  // Inside the shell "home" is the dashboard; on the public site it is the landing page.
  const inApp = useLocation().pathname.startsWith('/app');
  return (
    <section className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <PageTitle title="Page not found" />
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild>
        <Link to={inApp ? '/app' : '/'}>Go home</Link>
      </Button>
    </section>
  );
}
