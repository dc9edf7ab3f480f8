import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LOGO_ALT, LOGO_SRC, PRODUCT_NAME, TAGLINE } from '@/config/brand';

export function LandingRoute() {
  return (
    <section className="mx-auto flex max-w-3xl flex-1 flex-col items-center justify-center gap-6 px-4 py-16 text-center">
      <img src={LOGO_SRC} alt={LOGO_ALT} className="size-20" />
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{PRODUCT_NAME}</h1>
      <p className="text-lg text-muted-foreground">{TAGLINE}</p>
      <Button asChild size="lg">
        <Link to="/auth/signin">Sign In</Link>
      </Button>
    </section>
  );
}
