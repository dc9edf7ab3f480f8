import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';
import { endedSignIns, type EndedSignIns } from './auth';

/** A stand-in portal answering the ended sign-ins route: `up` decides between the list and a 503. */
async function portal() {
  const state = { up: false, requests: 0 };
  const server: Server = createServer((_req, res) => {
    state.requests++;
    res.writeHead(state.up ? 200 : 503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        state.up ? { success: true, data: { sessionIds: [endedSignInKey('s-1')] } } : {},
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/.well-known/revoked-sessions`;
  return { state, url, close: () => new Promise((r) => server.close(r)) };
}

let running: { list: EndedSignIns; close: () => Promise<unknown> } | null = null;
afterEach(async () => {
  running?.list.stop();
  await running?.close();
  running = null;
});

describe('ended sign-ins from the portal', () => {
  it('does not log a portal that is still starting, then logs an outage once and learns the list when it is back', async () => {
    const p = await portal();
    const warn = vi.fn();
    const starting = endedSignIns(p.url, 250, 60_000);
    running = { list: starting, close: p.close };
    starting.start({ warn });
    await vi.waitFor(() => expect(p.state.requests).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(warn).not.toHaveBeenCalled();

    p.state.up = true;
    await vi.waitFor(() => expect(starting.has('s-1')).toBe(true), { timeout: 10_000 });
    // it has answered once: from now on an outage is one, logged once however long it lasts
    p.state.up = false;
    const seen = p.state.requests;
    await vi.waitFor(() => expect(p.state.requests).toBeGreaterThanOrEqual(seen + 3), {
      timeout: 10_000,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(starting.has('s-1')).toBe(true); // the last list stays in force
  }, 30_000);

  it('logs a portal that never answered once the start-up grace is over', async () => {
    const p = await portal();
    const warn = vi.fn();
    const list = endedSignIns(p.url, 250, 0);
    running = { list, close: p.close };
    list.start({ warn });
    await vi.waitFor(() => expect(p.state.requests).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![1]).toMatch(/cannot fetch the ended sign-ins/);
  }, 30_000);
});
