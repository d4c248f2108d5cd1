import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueueClient } from '@azure/storage-queue';
import { ensureContainer } from '../../adapters/cosmos/client';
import { localContainer } from '../local-store';
import { BEACON_SITE, hostSettings } from '../settings';
import { beaconTraffic, serverTraffic } from './traffic';

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB, from /proc. */
function residentMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * The local host alone in a process of its own (`npm run host`, timers on), driven with the bench's beacon and server
 * traffic until its queue is empty and the fold has run; answers its peak resident memory (VmHWM) in MB.
 */
export async function peakMemory(queueConnection: string, cosmosEndpoint: string): Promise<{ peak: number; idle: number }> {
  const root = join(__dirname, '..', '..');
  const settings = hostSettings(queueConnection, cosmosEndpoint, 'cost-memory', BEACON_SITE);
  await ensureContainer(localContainer(cosmosEndpoint, settings.COSMOS_DATABASE));
  const queue = new QueueClient(queueConnection, settings.HITS_QUEUE);
  await queue.createIfNotExists();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'host', 'local', 'serve.ts'), '--port', '0'], {
    cwd: root,
    env: { ...process.env, ...settings, AzureFunctionsWebHost__hostid: settings.HITS_QUEUE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the host did not start: ${output}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`the host exited with ${code}: ${output}`)));
    });
    const idle = residentMb(child.pid!).now;
    for (let round = 0; round < 2; round += 1) {
      await beaconTraffic(url, 10_000 + round * 1_000);
      await serverTraffic(url, 20_000 + round * 1_000);
    }
    while (((await queue.getProperties()).approximateMessagesCount ?? 0) > 0) await sleep(200);
    await fetch(`${url}/admin/functions/recount`, { method: 'POST' });
    return { peak: Math.round(residentMb(child.pid!).peak), idle: Math.round(idle) };
  } finally {
    child.kill('SIGTERM');
  }
}
