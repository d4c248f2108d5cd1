import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';

// Admin sessions kept in the local Cosmos server, through the local host: signing out ends a session on the server, so
// its cookie sent again opens nothing, and a session outlives a restart until then.

const clock = fixedClock('2026-10-23T12:00:00.000Z');

describe('an Admin session kept in the store', () => {
  let t: TestHost;
  const session = (response: Response) => /__Host-headcount_admin=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const people = (cookie: string) =>
    fetch(`${t.host.url}/api/admin/visitors/people`, { headers: { cookie: `__Host-headcount_admin=${cookie}` } });

  beforeAll(async () => {
    t = await startTestHost({ overrides: { clock } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('holds over a restart, and once signed out its cookie replayed is refused', async () => {
    const signedIn = await fetch(`${t.host.url}/api/admin/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.env.OPERATOR_KEY!}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(signedIn.status).toBe(200);
    const cookie = session(signedIn)!;
    expect(cookie).toMatch(/^v2\./);
    expect((await people(cookie)).status).toBe(200);
    await t.stop();
    t = await startTestHost({ env: t.env, overrides: { clock } });
    expect((await people(cookie)).status).toBe(200);
    const signedOut = await fetch(`${t.host.url}/api/admin/session`, {
      method: 'DELETE',
      headers: { cookie: `__Host-headcount_admin=${cookie}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(signedOut.status).toBe(204);
    expect(session(signedOut)).toBe('');
    const replayed = await people(cookie);
    expect(replayed.status).toBe(401);
    expect((await replayed.json()).error.message).toBe('authorization: the session has ended; sign in again');
  });
});
