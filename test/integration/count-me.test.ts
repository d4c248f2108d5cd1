import type { NetworkInterfaceInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countMe } from '../../local/count-me';
import { readMessage, type QueuedHit } from '../../shared/core/message';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';

// `npm start -- --count-me`: this machine's browser counted as a visitor. A request from loopback reaches the app as
// from the machine's own network address, so it is a person's; without the flag it is the site reading itself.

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as unknown as NetworkInterfaceInfo;
const MACHINE = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  eth0: [iface('fe80::1', 'IPv6'), iface('2a01:e0a:9::5', 'IPv6'), iface('192.168.1.20', 'IPv4')],
};

describe('--count-me', () => {
  it('is asked for by name only, and takes this machine’s network address (IPv4 first, never link-local)', () => {
    expect(countMe(['--fresh'], {}, [], MACHINE)).toBeNull();
    expect(countMe(['--count-me'], {}, [], MACHINE)).toEqual({ address: '192.168.1.20' });
    expect(countMe(['--count-me'], {}, [], { lo: MACHINE.lo, eth0: [iface('fe80::1', 'IPv6'), iface('2a01:e0a:9::5', 'IPv6')] })).toEqual({
      address: '2a01:e0a:9::5',
    });
  });

  it('is refused in Azure (WEBSITE_INSTANCE_ID set), on a machine with only loopback, and for an address of SELF_NETWORKS, each saying why', () => {
    expect(countMe(['--count-me'], { WEBSITE_INSTANCE_ID: 'abc123' }, [], MACHINE)).toEqual({
      refused:
        '--count-me is refused in Azure (WEBSITE_INSTANCE_ID is set): it is for a local stack, to count the browser of the machine it runs on',
    });
    expect(countMe(['--count-me'], {}, [], { lo: MACHINE.lo })).toMatchObject({ refused: expect.stringContaining('no network address') });
    expect(countMe(['--count-me'], {}, ['192.168.0.0/16'], MACHINE)).toMatchObject({
      refused: expect.stringContaining('192.168.1.20 is in SELF_NETWORKS'),
    });
  });
});

describe('an event from a browser on this machine', () => {
  const origin = 'https://site.example';
  let counted: TestHost;
  let plain: TestHost;
  beforeAll(async () => {
    const address = countMe(['--count-me'], {}, [], MACHINE) as { address: string };
    counted = await startTestHost({ queues: false, loopbackAs: address.address });
    plain = await startTestHost({ queues: false });
  });
  afterAll(async () => {
    await counted.stop();
    await plain.stop();
  });

  /** Sends the click of a `data-headcount-event` button from loopback, as the snippet does, and reads what was queued. */
  async function click(t: TestHost): Promise<QueuedHit> {
    const headers = { ...browserHeaders(AGENTS.firefoxLinux), 'user-agent': AGENTS.firefoxLinux, origin };
    const answer = await post(`${t.host.url}/api/beacon`, { path: '/', event: 'download-cv' }, headers);
    expect(answer.status).toBe(202);
    const messages = (await t.peek()).map((text) => readMessage(text));
    expect(messages).toHaveLength(1);
    return (messages[0] as { ok: true; message: { hits: QueuedHit[] } }).message.hits[0]!;
  }

  it('is a person’s with --count-me: a person hash, not the site’s own, and no network kept beside it', async () => {
    const hit = await click(counted);
    expect(hit).toMatchObject({ self: false, bot: false, network: 'x', event: 'download-cv' });
    expect(hit.person).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is the site reading itself without it: loopback, no person', async () => {
    const hit = await click(plain);
    expect(hit).toMatchObject({ self: true, person: null, network: '127.0.0.x', event: 'download-cv' });
  });
});
