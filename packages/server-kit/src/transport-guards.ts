import type { Socket } from 'node:net';
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { fail } from '@pa/contracts/envelope';
import { ErrorCode } from '@pa/contracts/error-codes';

/**
 * Headers of the answers given before a route runs (no service plugin sees those): they carry no
 * page, so the strictest policy fits.
 */
export const BARE_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** What Node's HTTP parser refused, as status and a message that does not echo the request. */
function refusalOf(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, message: 'The address or the headers of the request are too long.' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, message: 'The request took too long to arrive.' };
  return { status: 400, message: 'The request is not valid HTTP.' };
}

/**
 * Fastify options that keep the envelope (and the security headers) on the answers Node and the
 * router give before any route or plugin runs: an over-long request line or header block (Node's
 * raw 431), a path parameter over the router's length (Fastify's 414 echoing the URL) and a broken
 * percent-escape. Neither answer repeats what the client sent.
 */
export function transportGuards(): Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler'
> {
  return {
    frameworkErrors(error, request, reply) {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : 400;
      const message = tooLong
        ? 'A part of the address is too long.'
        : 'The address is not valid (a broken %-escape).';
      // The generic reply type is tied to route schemas; these answers belong to no route.
      void (reply as FastifyReply)
        .code(status)
        .headers({ ...BARE_ANSWER_HEADERS, 'x-request-id': request.id })
        .send(fail(ErrorCode.BAD_REQUEST, message, undefined, status));
    },
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, message } = refusalOf(error);
      if (socket.writable) {
        const body = JSON.stringify(fail(ErrorCode.BAD_REQUEST, message, undefined, status));
        const headers = {
          ...BARE_ANSWER_HEADERS,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          connection: 'close',
        };
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('')}\r\n${body}`,
        );
      }
      // Half-close and drop what the client is still sending, so it reads the answer instead of a
      // reset; the timer ends a client that never stops.
      socket.end();
      socket.resume();
      setTimeout(() => socket.destroy(), 5_000).unref();
    },
  };
}
