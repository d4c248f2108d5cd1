/**
 * The one price table: every dollar figure `npm run bench cost` prints and docs/cost.md's cost section shows is worked
 * out from these (test/infra/cost-readme.test.ts holds docs/cost.md to them). USD, pay-as-you-go, East US, taken on
 * 2026-11-30; they change by region and over time, so check https://azure.microsoft.com/pricing/calculator/.
 */
export const PRICES = {
  /** Cosmos DB serverless, per million request units. */
  cosmosPerMillionRu: 0.25,
  /** Cosmos DB storage, per GB-month. */
  cosmosPerGbMonth: 0.25,
  /** Queue Storage (GPv2, LRS), per 10,000 operations, class 1 and class 2 alike. */
  queuePer10kOperations: 0.004,
  /** Flex Consumption on demand, per million executions. */
  functionsPerMillionExecutions: 0.4,
  /** Flex Consumption on demand, per GB-second of instance memory while executing. */
  functionsPerGbSecond: 0.000026,
  /** The least Flex Consumption bills an instance for a stretch of executing, in seconds. */
  minimumBilledSeconds: 1,
  /** Log Analytics (Analytics Logs), per GB ingested. */
  logsPerGb: 2.3,
} as const;

/** Where each price was read, as the price table in docs/cost.md says it. */
export const PRICE_SOURCES = [
  {
    service: 'Cosmos DB serverless',
    price: `$${PRICES.cosmosPerMillionRu} per million RU; $${PRICES.cosmosPerGbMonth} per GB-month`,
    source: 'azure.microsoft.com/pricing/details/cosmos-db (Retail Prices API meter "Serverless Request Units", eastus)',
  },
  {
    service: 'Queue Storage, GPv2 LRS',
    price: `$${PRICES.queuePer10kOperations} per 10,000 operations (class 1 and class 2)`,
    source: 'azure.microsoft.com/pricing/details/storage/queues',
  },
  {
    service: 'Flex Consumption, on demand',
    price: `$${PRICES.functionsPerGbSecond} per GB-s; $${PRICES.functionsPerMillionExecutions} per million executions; ${PRICES.minimumBilledSeconds} s minimum per active stretch`,
    source: 'azure.microsoft.com/pricing/details/functions',
  },
  {
    service: 'Log Analytics, Analytics Logs',
    price: `$${PRICES.logsPerGb} per GB ingested`,
    source: 'azure.microsoft.com/pricing/details/monitor',
  },
] as const;

/** Monthly free grants (per subscription for Functions, per workspace for logs); not subtracted from any line. */
export const FREE_GRANTS = {
  functionsGbSeconds: 100_000,
  functionsExecutions: 250_000,
  logsGb: 5,
} as const;

/** Assumed size of one request record in Log Analytics (AppRequests with the host's dimensions), in bytes. */
export const REQUEST_RECORD_BYTES = 1_000;

/** What one hit cost on a run, every figure per hit. */
export interface PerHit {
  executions: number;
  queueOperations: number;
  storeCalls: number;
  requestUnits: number;
  /** Seconds some execution was running, all executions overlapping as they did in the run. */
  activeSeconds: number;
  telemetryBytes: number;
}

/** Dollars per million hits, line by line, at an instance memory, from what one hit cost. */
export function dollarsPerMillion(perHit: PerHit, memoryMb: number) {
  const million = 1_000_000;
  const lines = {
    'Cosmos DB request units': (perHit.requestUnits * million * PRICES.cosmosPerMillionRu) / million,
    'Queue Storage operations': (perHit.queueOperations * million * PRICES.queuePer10kOperations) / 10_000,
    'Functions executions': (perHit.executions * million * PRICES.functionsPerMillionExecutions) / million,
    [`Functions compute at ${memoryMb} MB`]: perHit.activeSeconds * million * (memoryMb / 1024) * PRICES.functionsPerGbSecond,
    'Log Analytics ingestion': (perHit.telemetryBytes * million * PRICES.logsPerGb) / 1e9,
  };
  const total = Object.values(lines).reduce((sum, value) => sum + value, 0);
  const largest = Object.entries(lines).sort((a, b) => b[1] - a[1])[0]!;
  return { lines, total, largest: { line: largest[0], dollars: largest[1] } };
}
