import fp from 'fastify-plugin';
import { controlCharacterPath, CONTROL_CHARACTERS_MESSAGE } from '@pa/contracts/text';
import { ErrorCode } from '@pa/contracts/error-codes';
import { AppError } from './errors';

/**
 * The backstop behind the schemas' text rules: a control character no field accepts (NUL, bell,
 * escape…), in any query parameter, path parameter or JSON body field, answers 400 naming the field
 * before a handler (or a database that cannot store it) sees it.
 */
export const controlCharacterGuard = fp(
  async function controlCharacterGuard(app) {
    app.addHook('preValidation', async (request) => {
      for (const part of [request.params, request.query, request.body]) {
        const field = controlCharacterPath(part);
        if (field === null) continue;
        throw new AppError(ErrorCode.VALIDATION_ERROR, `${field}: ${CONTROL_CHARACTERS_MESSAGE}`, [
          { field, message: CONTROL_CHARACTERS_MESSAGE, code: ErrorCode.VALIDATION_ERROR },
        ]);
      }
    });
  },
  { name: 'control-character-guard' },
);
