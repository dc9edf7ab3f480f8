import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Uploads: one file of at most `fileBytes`, and the few short form fields of the upload form. */
export const multipartPlugin = fp<{ fileBytes: number }>(
  async function multipartPlugin(app: FastifyInstance, { fileBytes }) {
    await app.register(multipart, {
      limits: { fileSize: fileBytes, files: 1, fields: 20, fieldSize: 1_000, parts: 30 },
    });
  },
  { name: 'power7-multipart' },
);
