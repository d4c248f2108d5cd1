import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostingListKey } from '../../shared/core/identity/hosting';
import { readTable, type HostingNetworks } from '../../shared/core/identity/network-table';
import { packageRoot } from './assets';

export const NETWORK_TABLE_FILE = join('data', 'hosting-networks.bin');

/** A missing or stale table is a start-up fault, since without it every data centre's request would count as a person. */
export function hostingNetworks(root: string = packageRoot()): HostingNetworks {
  const file = join(root, NETWORK_TABLE_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new Error(`${file} is missing: run npm run networks (npm install and npm run build make it too)`);
  }
  const read = readTable(bytes, hostingListKey());
  if (!read.ok) throw new Error(`${file} cannot be used: ${read.reason}; run npm run networks`);
  return read.table;
}
