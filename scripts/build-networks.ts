// npm run networks (also run by npm install's prepare, npm run build and npm test): makes data/hosting-networks.bin,
// the compact table of the hosting networks' address ranges, from the network data package @ip-location-db/asn
// (RouteViews, the five RIRs via the NRO, and DB-IP; CC BY 4.0) and the one hosting list, shared/core/identity/hosting.ts.
// Only the listed networks' ranges are kept, adjacent ones merged, so the table is small and the process reads it
// once. `--if-stale` does nothing when the table already holds this package version and this list.
import { createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { HOSTING_ASNS, hostingListKey } from '../shared/core/identity/hosting';
import { encodeTable, readTable, type TableRanges } from '../shared/core/identity/network-table';

const root = join(__dirname, '..');
const data = join(root, 'node_modules', '@ip-location-db', 'asn');
/** Where the table is made and where the app reads it (adapters/files/networks.ts). */
const target = join(root, 'data', 'hosting-networks.bin');

async function rows(file: string, take: (start: string, end: string, asn: number) => void): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const [start, end, asn] = line.split(',', 3);
    if (start && end && asn) take(start, end, Number(asn));
  }
}

type Range = { start: bigint; end: bigint; asn: number };

/** The ranges in order, adjacent or overlapping ones of one AS as one; where two networks overlap the earlier keeps its end. */
function merged(ranges: Range[]): Range[] {
  ranges.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: Range[] = [];
  for (const range of ranges) {
    const last = out[out.length - 1];
    if (last && last.asn === range.asn && range.start <= last.end + 1n) {
      if (range.end > last.end) last.end = range.end;
    } else if (last && range.start <= last.end) {
      if (range.end > last.end) out.push({ ...range, start: last.end + 1n });
    } else {
      out.push({ ...range });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(data, 'package.json'), 'utf8')) as { name: string; version: string };
  const list = hostingListKey();
  if (process.argv.includes('--if-stale') && existsSync(target)) {
    const read = readTable(readFileSync(target), list);
    if (read.ok && read.table.header.version === manifest.version) return;
  }
  const hosting = new Set(HOSTING_ASNS);
  const ranges: { ipv4: Range[]; ipv6: Range[] } = { ipv4: [], ipv6: [] };
  await rows(join(data, 'asn-ipv4-num.csv'), (start, end, asn) => {
    if (hosting.has(asn)) ranges.ipv4.push({ start: BigInt(start), end: BigInt(end), asn });
  });
  await rows(join(data, 'asn-ipv6-num.csv'), (start, end, asn) => {
    if (hosting.has(asn)) ranges.ipv6.push({ start: BigInt(start) >> 64n, end: BigInt(end) >> 64n, asn });
  });
  const table: TableRanges = {
    ipv4: merged(ranges.ipv4).map((range) => ({ ...range, start: Number(range.start), end: Number(range.end) })),
    ipv6: merged(ranges.ipv6),
  };
  const bytes = encodeTable(table, { source: manifest.name, version: manifest.version, list });
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  console.log(
    `hosting networks: ${table.ipv4.length} IPv4 and ${table.ipv6.length} IPv6 ranges of ${hosting.size} networks from ${manifest.name}@${manifest.version}, ${(bytes.length / 1024).toFixed(0)} KB in data/hosting-networks.bin`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
