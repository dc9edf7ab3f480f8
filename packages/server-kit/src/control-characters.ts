import fp from 'fastify-plugin';
import { unsafeTextAt } from '@pa/contracts/text';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError } from './errors';

/**
 * The backstop behind the schemas' text rules: a control character no field accepts (NUL, bell,
 * escape…) or a lone surrogate (no character at all), in any query parameter, path parameter or JSON
 * body field, answers 400 naming the field before a handler (or a database that cannot store it)
 * sees it. Both services register it; its export stays `controlCharacterGuard`.
 */
export const controlCharacterGuard = fp(
  async function controlCharacterGuard(app) {
    app.addHook('preValidation', async (request) => {
      for (const part of [request.params, request.query, request.body]) {
        const found = unsafeTextAt(part);
        if (found === null) continue;
        const { field, message } = found;
        throw new AppError(ErrorCode.VALIDATION_ERROR, `${field}: ${message}`, [
          { field, message, code: ErrorCode.VALIDATION_ERROR },
        ]);
      }
    });
  },
  { name: 'control-character-guard' },
);
