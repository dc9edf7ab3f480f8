import http from 'node:http';
import { expect } from 'vitest';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One GET over a real socket, whatever the path holds (fetch would refuse some of these). */
export function rawGet(port: number, path: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * Requests any client can send that Node or the router answer before a route runs: a 200 KB query
 * string, 5,000 parameters, a path segment over the router's limit and a broken percent-escape.
 * `idRoute` is a route of the service with one path parameter, as `/api/…/:id` with `:id` to fill.
 */
export function hostileRequests(idRoute: string): { name: string; path: string }[] {
  const long = 'x'.repeat(200 * 1024);
  const many = Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join('&');
  return [
    { name: '200 KB query string', path: `/api/live/?q=${long}` },
    { name: '5,000 parameters', path: `/api/live/?${many}` },
    { name: 'path segment of 1,000 characters', path: idRoute.replace(':id', 'a'.repeat(1000)) },
    { name: 'broken percent-escape in a parameter', path: idRoute.replace(':id', '%E0%A4%A') },
  ];
}

/** The answer is the envelope, with the security headers, and does not echo what was sent. */
export function expectEnvelopeWithSecurityHeaders(answer: RawAnswer, sentPath: string): void {
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ success: false, status: answer.status, data: null });
  expect(typeof body.code).toBe('string');
  expect(Array.isArray(body.errors)).toBe(true);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.body).not.toContain(sentPath.slice(-40));
}
