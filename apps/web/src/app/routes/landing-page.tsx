import { PageTitle } from '@/components/page-title';
import { usePublicLinks } from '@/components/layouts/public-links';
import { Button } from '@/components/ui/button';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME, TAGLINE } from '@/config/brand';

/** The landing page of docs/product/web.md §2; a signed-in visitor is offered the app instead of sign-in. */
export function LandingPage({ signedIn }: { signedIn: boolean }) {
  const { Link } = usePublicLinks();
  return (
    <section className="mx-auto flex max-w-3xl flex-1 flex-col items-center justify-center gap-6 px-4 py-16 text-center">
      <PageTitle title="" />
      <img src={LOGO_SRC} alt={LOGO_ALT} className="size-20" />
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{PRODUCT_NAME}</h1>
      <p className="text-lg text-muted-foreground">{TAGLINE}</p>
      <Button asChild size="lg">
        {signedIn ? <Link to="/app">Open the app</Link> : <Link to="/auth/signin">Sign In</Link>}
      </Button>
    </section>
  );
}
