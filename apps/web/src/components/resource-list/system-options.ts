/** The Type filter of roles and permissions: the product's own records or the company's. */
export const SYSTEM_OPTIONS = [
  { value: 'true', label: 'System' },
  { value: 'false', label: 'Custom' },
];
