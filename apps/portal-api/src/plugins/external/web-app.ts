import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isLoopbackIp } from '../../modules/mfa/relying-party';

/** Vite names everything under assets/ by content hash: such a file never changes under its name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheControlFor(distDir: string, filePath: string) {
  const relative = path.relative(distDir, filePath).split(path.sep);
  return relative[0] === 'assets' ? IMMUTABLE : 'no-cache';
}

/**
 * Where a page asked at a loopback IP address moves to: the same port and path at `localhost`.
 * Browsers refuse passkeys at an IP address, and a loopback installation's relying party is
 * `localhost` (ADR 023), so a page opened at `http://127.0.0.1:8000` would show passkeys that
 * cannot work. Null for any other host.
 */
function localhostAddressOf(request: FastifyRequest): string | null {
  const host = request.headers.host ?? '';
  const match = /^(.*?)(:\d+)?$/.exec(host);
  if (!match?.[1] || !isLoopbackIp(match[1])) return null;
  return `${request.protocol}://localhost${match[2] ?? ''}${request.url}`;
}

/**
 * Serves the built single-page app. Unknown non-API GETs that accept HTML get index.html (history
 * fallback) so that client-side routes, including the not-found page, work on reload. With
 * `pagesAtLocalhost` (the relying party is `localhost`), a page asked at a loopback IP address is
 * redirected there instead; the API answers at any address.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  { pagesAtLocalhost = false }: { pagesAtLocalhost?: boolean } = {},
) {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (!hasBuild) {
    app.log.warn({ distDir }, 'web app build not found; only the API is served');
    return () => false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    // The web build writes .br and .gz beside each text asset; the best one the browser accepts is
    // sent (with Vary: Accept-Encoding), so nothing is compressed per request.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      void reply.header('cache-control', cacheControlFor(distDir, filePath));
    },
  });
  return (request: FastifyRequest, reply: FastifyReply) => {
    // Client-side routes have no file extension; a missing asset (e.g. /assets/x.js) stays a 404.
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api') &&
      (!path.extname(pathname) || (request.headers.accept ?? '').includes('text/html'));
    if (!isPage) return false;
    const localhost = pagesAtLocalhost ? localhostAddressOf(request) : null;
    if (localhost) {
      void reply.header('cache-control', 'no-store').redirect(localhost, 302);
      return true;
    }
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
