import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { allowOrigins } from '@pa/server-kit/cors';

/** Only the web app's origin may call this API from a browser (it sends X-CSRFToken too). */
export const corsPlugin = fp<{ origins: readonly string[] }>(
  async function corsPlugin(app: FastifyInstance, { origins }) {
    await app.register(cors, {
      // A refused origin gets no CORS header at all (a plain list still sends allow-credentials).
      origin: allowOrigins(origins),
      credentials: true,
      allowedHeaders: ['Authorization', 'Content-Type', 'X-CSRFToken', 'X-Requested-With'],
      // PATCH and DELETE edit and delete a session (the plugin's default allows GET, HEAD and POST only)
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      exposedHeaders: ['Content-Disposition', 'X-Total-Rows'],
    });
  },
  { name: 'power7-cors' },
);
