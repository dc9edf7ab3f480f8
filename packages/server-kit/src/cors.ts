/**
 * The `origin` option of @fastify/cors for a list of allowed browser origins. A refused origin (or
 * a request without one) gets no CORS header at all: with a plain list, @fastify/cors still sends
 * `Access-Control-Allow-Credentials` (and the exposed headers) to every origin.
 */
export function allowOrigins(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) =>
    callback(null, origin !== undefined && allowed.has(origin));
}
