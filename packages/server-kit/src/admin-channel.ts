import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';

/** The services that keep an admin channel (each its own socket). */
export type ChannelService = 'portal' | 'power7';

/**
 * A running service's local admin channel: HTTP on a Unix socket at `${DATA_DIR}/run/<service>.sock`,
 * in a folder only the service's OS user may enter (0700; the socket itself 0600). Whoever can reach
 * it could read DATA_DIR anyway, so it takes no other credential. The admin command asks the running
 * service through it (backups, creating a company) instead of opening a PGlite folder the service holds.
 */
export function adminSocketPath(dataDir: string, service: ChannelService): string {
  return path.join(path.resolve(dataDir), 'run', `${service}.sock`);
}

/** Longest Unix socket path the platforms allow (108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = 103;

interface Log {
  warn(object: object, message: string): void;
}

/**
 * Serves `routes` on the service's admin socket; resolves to the function that closes it. A socket
 * file left by a killed process is replaced (the caller holds DATA_DIR's folder lock: no other live
 * service of this kind uses it). Null (logged) when no socket can be made there.
 */
export async function openAdminChannel(
  dataDir: string,
  service: ChannelService,
  routes: (channel: FastifyInstance) => void,
  log: Log,
): Promise<(() => Promise<void>) | null> {
  const socket = adminSocketPath(dataDir, service);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    log.warn(
      { socket },
      'DATA_DIR is too long a path for the admin socket; the admin command cannot reach this running service',
    );
    return null;
  }
  const channel = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  routes(channel);
  try {
    fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    fs.chmodSync(path.dirname(socket), 0o700);
    fs.rmSync(socket, { force: true });
    await channel.listen({ path: socket });
    fs.chmodSync(socket, 0o600);
  } catch (error) {
    // a folder that holds no sockets (some network mounts; Windows wants named pipes): the service
    // runs all the same, and the admin command says the folder is in use
    await channel.close();
    log.warn(
      { err: error, socket },
      'no admin socket; the admin command cannot reach this running service',
    );
    return null;
  }
  return async () => {
    await channel.close();
    fs.rmSync(socket, { force: true });
  };
}

export interface ChannelAnswer {
  status: number;
  body: Buffer;
  json<T>(): T;
}

/**
 * Calls a running service's admin channel; null when no service listens there (not running, or
 * killed: its socket file is left but nobody answers).
 */
export function callAdminChannel(
  dataDir: string,
  service: ChannelService,
  method: string,
  url: string,
  body?: unknown,
): Promise<ChannelAnswer | null> {
  const socketPath = adminSocketPath(dataDir, service);
  if (!fs.existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        socketPath,
        method,
        path: url,
        headers: payload ? { 'content-type': 'application/json' } : {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            body: all,
            json: <T>() => JSON.parse(all.toString('utf8')) as T,
          });
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(error);
    });
    request.end(payload);
  });
}
