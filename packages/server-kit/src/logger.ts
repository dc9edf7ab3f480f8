import { LogController, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { stdSerializers } from 'pino';
import { transportGuards } from './transport-guards';

/** Keys whose values never reach a log line, at any of the first three levels of a logged object. */
const SECRET_KEYS = [
  'password',
  'passwords',
  'currentPassword',
  'newPassword',
  'token',
  'accessToken',
  'refreshToken',
  'hash',
  'passwordHash',
  'authorization',
  'cookie',
  'set-cookie',
];
const SECRET_PATHS = SECRET_KEYS.flatMap((key) => {
  const name = /^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `["${key}"]`;
  return [name.replace(/^\./, ''), `*${name}`, `*.*${name}`];
});

/** Query parameters whose values are credentials (a reset link's token, an API key). */
const SECRET_QUERY = /^(token|.*password.*|.*secret.*|.*key|access_token|refresh_token|code)$/i;

/** A URL for the log: the path and parameter names kept, credential values replaced. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_QUERY.test(decodeURIComponentSafe(name))
        ? `${name}=[redacted]`
        : pair;
    })
    .join('&');
  return `${url.slice(0, question)}?${query}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Health, readiness, status and scrape paths: polled several times a second, so logged at debug. */
const PROBE_PATHS = new Set([
  '/api/live/',
  '/api/ready/',
  '/api/health/',
  '/api/status/',
  '/metrics',
]);

function isProbe(url: string): boolean {
  const question = url.indexOf('?');
  return PROBE_PATHS.has(question < 0 ? url : url.slice(0, question));
}

/** Fastify's per-request lines, at debug instead of info for probes (start-up polls them). */
class ProbeQuietLogController extends LogController {
  override incomingRequest(...args: Parameters<LogController['incomingRequest']>) {
    const [request] = args;
    if (!isProbe(request.url)) return super.incomingRequest(...args);
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(...args: Parameters<LogController['requestCompleted']>) {
    const [error, request, reply] = args;
    if (error || !isProbe(request.url)) return super.requestCompleted(...args);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The bound values of a failed statement in Drizzle's message and stack, up to the stack frames. */
const PARAMS_LINE = /\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/;

const PRETTY = {
  target: 'pino-pretty',
  options: { singleLine: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
};

/**
 * Errors as logged: a failed database query keeps its statement (to find the bug) and its cause,
 * but not the values bound to it (Drizzle puts them in the message, the stack and `params`: a new
 * user's password hash, say).
 */
function errorForLog(error: Error) {
  const serialized = stdSerializers.err(error);
  if (!('params' in serialized)) return serialized;
  const { params: _params, ...rest } = serialized;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return {
    ...rest,
    message: `Failed query: ${String(serialized.query)}\nparams: [redacted]${cause}`,
    stack: serialized.stack.replace(PARAMS_LINE, '\nparams: [redacted]'),
  };
}

/**
 * The Fastify options both services start with. Structured logging: JSON lines with a request id,
 * and secrets (tokens, cookies, passwords, hashes, query parameters of failed statements) redacted
 * wherever they appear; `stream` sends the lines elsewhere than stdout (tests read them). And the
 * envelope on answers given before routing (transport-guards.ts).
 */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
  /** Fields on every line besides pid and hostname, e.g. a process's role among many. */
  base?: Record<string, string>,
): Pick<
  FastifyServerOptions,
  | 'logger'
  | 'genReqId'
  | 'requestIdHeader'
  | 'frameworkErrors'
  | 'clientErrorHandler'
  | 'logController'
> {
  return {
    ...transportGuards(),
    logController: new ProbeQuietLogController(),
    logger:
      level === 'silent'
        ? false
        : {
            level,
            ...(base ? { base: { pid: process.pid, ...base } } : {}),
            // A given stream (tests read it) wins; on a terminal one compact coloured line per
            // entry; JSON lines everywhere else.
            ...(stream ? { stream } : process.stdout.isTTY ? { transport: PRETTY } : {}),
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'res.headers["set-cookie"]',
                ...SECRET_PATHS,
              ],
              censor: '[redacted]',
            },
            serializers: {
              err: errorForLog,
              req: (request: { method: string; url: string; ip?: string; host?: string }) => ({
                method: request.method,
                url: redactUrl(request.url),
                host: request.host,
                remoteAddress: request.ip,
              }),
            },
          },
    // Read by genReqId, not by Fastify as it is: a client's id reaches every log line and answer.
    requestIdHeader: false,
    genReqId: requestIdOf,
  };
}

/** A request id a client may choose: short, and nothing a log line or a header could misread. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The request's id: the client's `x-request-id` when it has a safe shape (to trace a call across
 * services), otherwise a new UUID.
 */
function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }) {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}
