/**
 * Networks that rent servers: a request from one is a machine, since people browse from home, office and phone networks.
 * scripts/build-networks.ts builds the address table from this list.
 *
 * Left out on purpose:
 * - ISPs that carry people.
 * - CDNs (Cloudflare 13335, Akamai 20940/36183, Fastly 54113): iCloud Private Relay and WARP users arrive from them.
 *
 * Known cost: a person behind a VPN, a corporate proxy or a cloud desktop on these networks is left out as a machine.
 */
export const HOSTING_NETWORKS: ReadonlyArray<{ provider: string; asns: readonly number[] }> = [
  { provider: 'Amazon Web Services', asns: [16509, 14618, 8987] },
  { provider: 'Google Cloud and Google', asns: [396982, 15169, 19527] },
  { provider: 'Microsoft Azure and Microsoft', asns: [8075] },
  { provider: 'Oracle Cloud', asns: [31898] },
  { provider: 'Alibaba Cloud', asns: [45102, 37963] },
  { provider: 'Tencent Cloud', asns: [45090, 132203] },
  { provider: 'Huawei Cloud', asns: [136907] },
  { provider: 'IBM Cloud', asns: [36351] },
  { provider: 'DigitalOcean', asns: [14061] },
  { provider: 'Hetzner', asns: [24940, 213230, 212317] },
  { provider: 'OVHcloud', asns: [16276, 35540] },
  { provider: 'Vultr', asns: [20473] },
  { provider: 'Scaleway', asns: [12876] },
  { provider: 'Contabo', asns: [51167, 40021] },
  { provider: 'Linode (Akamai Connected Cloud)', asns: [63949] },
  { provider: 'Leaseweb', asns: [60781, 16265] },
  { provider: 'Hostinger', asns: [47583] },
  { provider: 'GoDaddy and Unified Layer', asns: [26496, 398101, 46606] },
  { provider: 'Hivelocity, InterServer, QuadraNet, FranTech', asns: [29802, 19318, 8100, 53667] },
  { provider: 'M247 and Datacamp', asns: [9009, 60068] },
];

export const HOSTING_ASNS: readonly number[] = [...new Set(HOSTING_NETWORKS.flatMap((network) => network.asns))].sort((a, b) => a - b);

/** Carried in the compact table, so a table built from another list is refused. */
export function hostingListKey(asns: readonly number[] = HOSTING_ASNS): string {
  let hash = 2166136261;
  for (const ch of asns.join(',')) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
