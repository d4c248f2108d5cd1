/**
 * The networks whose business is renting servers: clouds, VPS and dedicated hosts. A request from one of them is a
 * machine by the one rule (shared/core/identity/kinds.ts), as a crawler's agent is: people browse from their home, office
 * and phone networks, not from a rented server. Kept in this one list, by autonomous system number; the build makes
 * the compact table of their address ranges from the network data (scripts/build-networks.ts), so a change here is
 * in force from the next build or test run.
 *
 * What is deliberately not here, and why:
 * - Networks that carry people: home, mobile and office ISPs (Comcast, Deutsche Telekom, BT, Orange, T-Mobile, …).
 * - CDNs and edge networks (Cloudflare 13335, Akamai 20940/36183, Fastly 54113): their egress carries iCloud Private
 *   Relay and Cloudflare WARP, so millions of real Safari and WARP users arrive from them.
 *
 * The known cost: a person whose traffic leaves through a server here is left out as a machine: a commercial VPN on a
 * rented server (M247 and Datacamp mostly carry VPNs), a corporate proxy or a cloud desktop (Windows 365 and Azure
 * Virtual Desktop on Microsoft's network, WorkSpaces on Amazon's), Google's own Pixel VPN on Google's network.
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

/** Every autonomous system number of the list, in order. */
export const HOSTING_ASNS: readonly number[] = [...new Set(HOSTING_NETWORKS.flatMap((network) => network.asns))].sort((a, b) => a - b);

/** A short fingerprint of the list, carried in the compact table so a table built from another list is refused. */
export function hostingListKey(asns: readonly number[] = HOSTING_ASNS): string {
  let hash = 2166136261;
  for (const ch of asns.join(',')) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
