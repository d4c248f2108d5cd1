import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';

// The local host answers a request it cannot read with 400 in the one error envelope, naming what was wrong, never a
// bare 500: a Host header that makes no URL, and a body of POST /admin/functions/<name> that is not its JSON.

/** What the host answers to `request`, written as is on a socket of its own. */
function raw(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** A chunked body's one chunk, as Node writes a response whose length it did not know. */
const envelopeOf = (body: string) => JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1));

describe('the local host answers 400 to input it cannot read', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost();
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it.each(['[bad', 'a b', 'host:99999'])('answers Host: %s with 400 naming host, and goes on answering', async (host) => {
    const answer = await raw(t.host.port, `GET /api/pulse HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(envelopeOf(answer.body)).toEqual({
      error: {
        code: 'invalid_request',
        message: 'host: must be a host name or address, and a port if any',
        issues: [{ path: 'host', message: 'must be a host name or address, and a port if any' }],
      },
    });
    expect((await fetch(`${t.host.url}/api/pulse`)).status).toBe(200);
  });

  it.each(['{bad', '[1]', '"recount"', 'null'])(
    'answers POST /admin/functions/recount with body %s with 400 naming the body',
    async (body) => {
      const response = await fetch(`${t.host.url}/admin/functions/recount`, { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request', issues: [{ path: '(body)' }] } });
    },
  );

  it('runs the function for an empty body or a JSON object', async () => {
    expect((await fetch(`${t.host.url}/admin/functions/recount`, { method: 'POST' })).status).toBe(202);
    expect((await fetch(`${t.host.url}/admin/functions/recount`, { method: 'POST', body: '{"input": null}' })).status).toBe(202);
  });
});
