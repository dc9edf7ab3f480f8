import { PRODUCT_NAME } from '@/config/brand';

/**
 * Sets the document title of the current route ("Users · Power Analyzer"). React 19 hoists a
 * rendered <title> into <head>, so a route only renders this element.
 */
export function PageTitle({ title }: { title: string }) {
  return <title>{title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME}</title>;
}
