import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

describe('smoke', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ queues: false });
  });
  afterAll(() => t.stop());
  it('posts a hit', async () => {
    const r = await fetch(`${t.host.url}/api/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
      body: JSON.stringify({ address: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', path: '/about?x=1' }),
    });
    expect(r.status).toBe(202);
    expect(await r.json()).toEqual({ accepted: 1, ignored: 0 });
    const msgs = await t.peek();
    expect(msgs).toHaveLength(1);
    console.log(msgs[0]);
  });
});
