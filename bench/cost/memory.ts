import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueClient } from '@azure/storage-queue';
import { ensureContainer } from '../../adapters/cosmos/client';
import { localContainer } from '../local-store';
import { BEACON_SITE, hostSettings } from '../settings';
import { hostProcess } from '../stack';
import { beaconTraffic, serverTraffic } from './traffic';

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
function residentMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The host alone in a process of its own, driven with beacon and server traffic until kept and folded: its peak memory in MB. */
export async function peakMemory(queueConnection: string, cosmosEndpoint: string): Promise<{ peak: number; idle: number }> {
  const settings = hostSettings(queueConnection, cosmosEndpoint, 'cost-memory', BEACON_SITE);
  await ensureContainer(localContainer(cosmosEndpoint, settings.COSMOS_DATABASE));
  const queue = new QueueClient(queueConnection, settings.HITS_QUEUE);
  await queue.createIfNotExists();
  // As infra runs the worker on a 512 MB instance: half of it for V8's old space.
  const host = await hostProcess({ ...settings, NODE_OPTIONS: '--max-old-space-size=256' });
  try {
    const idle = residentMb(host.child.pid!).now;
    for (let round = 0; round < 2; round += 1) {
      await beaconTraffic(host.url, 10_000 + round * 1_000);
      await serverTraffic(host.url, 20_000 + round * 1_000);
    }
    while (((await queue.getProperties()).approximateMessagesCount ?? 0) > 0) await sleep(200);
    await fetch(`${host.url}/admin/functions/recount`, { method: 'POST' });
    return { peak: Math.round(residentMb(host.child.pid!).peak), idle: Math.round(idle) };
  } finally {
    await host.stop();
  }
}
