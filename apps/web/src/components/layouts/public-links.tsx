import { createContext, useContext, type ComponentProps, type ComponentType } from 'react';

type AnchorProps = Omit<ComponentProps<'a'>, 'href' | 'className'>;

export interface PublicLinkProps extends AnchorProps {
  to: string;
  className?: string;
}

/** Like React Router's `NavLink` with `end`: the class may depend on whether `to` is the current page. */
export interface PublicNavLinkProps extends AnchorProps {
  to: string;
  className?: string | ((state: { isActive: boolean }) => string);
}

export interface PublicLinks {
  Link: ComponentType<PublicLinkProps>;
  NavLink: ComponentType<PublicNavLinkProps>;
}

const PublicLinksContext = createContext<PublicLinks | null>(null);

/**
 * The links of the public pages. Inside the app they are React Router's; the first landing page of a
 * signed-out visitor renders before the router is loaded (main.tsx) and hands its own in.
 */
export const PublicLinksProvider = PublicLinksContext.Provider;

export function usePublicLinks() {
  const links = useContext(PublicLinksContext);
  if (!links) throw new Error('usePublicLinks must be used within a PublicLinksProvider.');
  return links;
}
