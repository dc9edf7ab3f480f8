import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A throwaway PostgreSQL server for integration tests. */
export interface TestPostgres {
  /** Connection URL of the `postgres` database (superuser, trust auth, loopback only). */
  url: string;
  port: number;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server, keeping its data (an outage); `resume()` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

function findPostgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs.readdirSync(base).filter((v) => fs.existsSync(`${base}/${v}/bin/postgres`))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql; run `npm test` (it installs them) or `apt-get install -y postgresql`.',
    );
  }
  return `${base}/${versions[0]}/bin`;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh PostgreSQL cluster in a temporary folder (initdb + postgres on a free loopback port).
 * The server refuses to run as root, so when we are root it runs as the `postgres` system user,
 * which owns the folder. Takes ~1–2 s.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-pg-'));
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? (['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const)
      : ([cmd, args] as const);

  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const [initCmd, initArgs] = run(`${bin}/initdb`, [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  execFileSync(initCmd, [...initArgs], { stdio: 'ignore' });

  const port = await freePort();
  const [pgCmd, pgArgs] = run(`${bin}/postgres`, [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  let server: ReturnType<typeof spawn>;
  const launch = async () => {
    const child = spawn(pgCmd, [...pgArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
    server = child;
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`PostgreSQL did not start:\n${log}`);
      const ready = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(log.includes('ready to accept connections'));
        });
        socket.once('error', () => resolve(false));
      });
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not become ready:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const halt = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    // runuser does not forward signals to the server, so ask pg_ctl to stop it.
    const [cmd, args] = run(`${bin}/pg_ctl`, ['-D', dataDir, 'stop', '-m', 'immediate', '-w']);
    execFileSync(cmd, [...args], { stdio: 'ignore' });
    await exited;
  };
  await launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const psql = (sql: string) => {
    const [cmd, args] = run(`${bin}/psql`, [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-qAtc',
      sql,
    ]);
    execFileSync(fs.existsSync(`${bin}/psql`) ? cmd : 'psql', [...args], { stdio: 'pipe' });
  };

  return {
    url,
    port,
    createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad database name: ${name}`);
      psql(`CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    pause: halt,
    resume: launch,
  };
}
