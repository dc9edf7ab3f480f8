import { jwtDecode } from 'jwt-decode';
import { TOKEN_EXPIRY_MARGIN_SECONDS } from '@/config/constants';

/**
 * True when the token is missing, unreadable, has no expiry claim, or expires within the margin
 * (docs/product/web.md §5: "an unreadable token counts as expired").
 */
export function isTokenExpired(
  token: string | null | undefined,
  nowMs: number = Date.now(),
  marginSeconds: number = TOKEN_EXPIRY_MARGIN_SECONDS,
): boolean {
  if (!token) return true;
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    if (typeof exp !== 'number') return true;
    return exp - marginSeconds <= nowMs / 1000;
  } catch {
    return true;
  }
}
