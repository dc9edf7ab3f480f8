import { Link, NavLink, Outlet } from 'react-router';
import { PublicFrame } from './public-frame';
import { PublicLinksProvider, type PublicLinks } from './public-links';

const routerLinks: PublicLinks = {
  Link,
  NavLink: (props) => <NavLink end {...props} />,
};

/** The public layout of the routed app: React Router's links around the current public page. */
export function PublicLayout() {
  return (
    <PublicLinksProvider value={routerLinks}>
      <PublicFrame>
        <Outlet />
      </PublicFrame>
    </PublicLinksProvider>
  );
}
