/** Product identity shown across the app (docs/product/web.md §1). */
export const PRODUCT_NAME = 'Power Analyzer';
export const TAGLINE = 'The All in one tool for your business.';
export const LOGO_ALT = 'Power Analyzer Logo';
export const LOGO_SRC = '/logo.svg';
