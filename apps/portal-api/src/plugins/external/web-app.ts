import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

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
