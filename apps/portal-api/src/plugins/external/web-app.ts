import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Vite names everything under assets/ by content hash: such a file never changes under its name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheControlFor(distDir: string, filePath: string) {
  const relative = path.relative(distDir, filePath).split(path.sep);
  return relative[0] === 'assets' ? IMMUTABLE : 'no-cache';
}

/**
 * Serves the built single-page app. Unknown non-API GETs that accept HTML get index.html (history
 * fallback) so that client-side routes, including the not-found page, work on reload.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
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
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
    return true;
  };
}
