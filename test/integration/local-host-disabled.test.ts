import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

// `AzureWebJobs.<function>.Disabled`, as the Functions host reads it: the trigger is ignored, the admin route (the
// master key's, in Azure) still runs the function.

let running: TestHost | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('the local host honours AzureWebJobs.<function>.Disabled', () => {
  it('serves no route, listens to no queue and schedules no timer of a disabled function; the admin route still runs it', async () => {
    running = await startTestHost({
      environment: {
        'AzureWebJobs.pulse.Disabled': 'true',
        'AzureWebJobs.keep-hits.Disabled': '1',
        'AzureWebJobs.recount.Disabled': 'True',
      },
      queues: true,
      timers: true,
    });
    const { host } = running;
    expect((await fetch(`${host.url}/api/pulse`)).status).toBe(404);
    expect([...host.listeners().keys()]).not.toContain('keep-hits');
    expect([...host.listeners().keys()]).toContain('keep-imports');
    expect(host.scheduled()).not.toContain('recount');
    expect(host.scheduled()).toContain('replay-poison');
    const run = await fetch(`${host.url}/admin/functions/recount`, { method: 'POST', body: '{}' });
    expect(run.status).toBe(202);
  });

  it('serves them all when the setting is absent or false', async () => {
    running = await startTestHost({ environment: { 'AzureWebJobs.pulse.Disabled': 'false' }, queues: true, timers: true });
    const { host } = running;
    expect((await fetch(`${host.url}/api/pulse`)).status).toBe(200);
    expect([...host.listeners().keys()]).toEqual(expect.arrayContaining(['keep-hits', 'keep-imports']));
    expect(host.scheduled()).toEqual(expect.arrayContaining(['recount', 'replay-poison']));
  });
});
