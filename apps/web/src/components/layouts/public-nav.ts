/** The public header's pages (docs/product/web.md §2 "Public layout"). */
export const PUBLIC_NAV = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];
