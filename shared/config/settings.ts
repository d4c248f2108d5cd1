import { z } from 'zod';
import { parseCidr } from '../identity/network';

const secret = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .min(16, `${name} must be at least 16 characters`);

const commaList = z
  .string()
  .default('')
  .transform((raw) =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.origin === value && (url.protocol === 'https:' || url.protocol === 'http:');
  } catch {
    return false;
  }
}, 'each origin must be scheme://host[:port] with no path, like https://example.com');

const cidr = z.string().refine((value) => parseCidr(value) !== null, 'each network must be a CIDR such as 10.0.0.0/8 or 2001:db8::/48');

const path = z.string().regex(/^\/[^\s?#]*$/, 'each path must start with / and carry no query');

const wholeNumber = (min: number, max: number, fallback: number) =>
  z.coerce.number().int(`must be a whole number`).min(min).max(max).default(fallback);

const absoluteUrl = z.string().url('must be an absolute URL');

/** The storage account the queue lives on: a connection string (local, keys) or a queue endpoint reached with a managed identity. */
const storageShape = z
  .object({
    AzureWebJobsStorage: z.string().min(1).optional(),
    AzureWebJobsStorage__queueServiceUri: absoluteUrl.optional(),
    AzureWebJobsStorage__clientId: z.string().min(1).optional(),
  })
  .superRefine((value, ctx) => {
    const keyed = value.AzureWebJobsStorage !== undefined;
    const identity = value.AzureWebJobsStorage__queueServiceUri !== undefined;
    if (keyed === identity) {
      ctx.addIssue({
        code: 'custom',
        path: ['AzureWebJobsStorage'],
        message: keyed
          ? 'set either AzureWebJobsStorage (a connection string) or AzureWebJobsStorage__queueServiceUri (managed identity), not both'
          : 'set AzureWebJobsStorage (a connection string) or AzureWebJobsStorage__queueServiceUri (managed identity)',
      });
    }
  });

/** Cosmos DB: an endpoint with a key (local server, keys) or without (managed identity); none keeps records in memory. */
const cosmosShape = z
  .object({
    COSMOS_ENDPOINT: absoluteUrl.optional(),
    COSMOS_KEY: z.string().min(1).optional(),
    COSMOS_CLIENT_ID: z.string().min(1).optional(),
    COSMOS_DATABASE: z.string().regex(/^[A-Za-z0-9_-]{1,255}$/).default('headcount'),
    COSMOS_CONTAINER: z.string().regex(/^[A-Za-z0-9_-]{1,255}$/).default('activity'),
  })
  .superRefine((value, ctx) => {
    if (value.COSMOS_ENDPOINT === undefined && (value.COSMOS_KEY !== undefined || value.COSMOS_CLIENT_ID !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['COSMOS_ENDPOINT'], message: 'COSMOS_ENDPOINT is required when COSMOS_KEY or COSMOS_CLIENT_ID is set' });
    }
    if (value.COSMOS_KEY !== undefined && value.COSMOS_CLIENT_ID !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['COSMOS_KEY'], message: 'set either COSMOS_KEY (key auth) or COSMOS_CLIENT_ID (managed identity), not both' });
    }
  });

const appShape = z.object({
  HASH_KEY: secret('HASH_KEY'),
  INGEST_KEY: secret('INGEST_KEY'),
  OPERATOR_KEY: secret('OPERATOR_KEY'),
  ALLOWED_ORIGINS: commaList.pipe(z.array(origin)),
  TRUSTED_PROXY_HOPS: wholeNumber(0, 10, 0),
  SELF_NETWORKS: commaList.pipe(z.array(cidr)),
  SELF_AGENT_TAG: z.string().trim().min(3, 'SELF_AGENT_TAG must be at least 3 characters').default('headcount-self'),
  IGNORED_PATHS: z
    .string()
    .default('/api/admin,/admin')
    .transform((raw) => raw.split(',').map((item) => item.trim()).filter((item) => item.length > 0))
    .pipe(z.array(path)),
  HIT_MAX_AGE_DAYS: wholeNumber(1, 365, 7),
  HITS_QUEUE: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, 'must be a valid queue name').default('hits'),
});

const settingsSchema = z.intersection(z.intersection(appShape, storageShape), cosmosShape);

/** Every setting the app reads, validated once at start-up. */
export type Settings = z.infer<typeof settingsSchema>;

/** A setting that is missing or malformed, named so an operator can fix it. */
export interface SettingsProblem {
  setting: string;
  message: string;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: SettingsProblem[] };

/** Reads the settings from an environment (process.env at start-up); never throws. */
export function readSettings(env: Record<string, string | undefined>): SettingsResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = settingsSchema.safeParse(present);
  if (parsed.success) return { ok: true, settings: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      setting: String(issue.path[0] ?? 'settings'),
      message: issue.message,
    })),
  };
}

/** One line per problem, each naming its setting. */
export function describeProblems(problems: SettingsProblem[]): string {
  return ['headcount cannot start: settings are missing or malformed', ...problems.map((p) => `  ${p.setting}: ${p.message}`)].join('\n');
}
