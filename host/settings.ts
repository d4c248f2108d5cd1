import { z } from 'zod';
import { declaredSites, sitesSetting, timeZoneSetting } from '../shared/core/sites/sites';
import { wholeNumberText } from '../shared/core/whole-number';
import { parseCidr } from '../shared/core/identity/network';
import { funnelStepsSetting } from '../shared/core/funnel';
import { goalsSetting } from '../shared/core/events/events';
import { PERSON_HASH_HIGHEST_COST, PERSON_HASH_LOWEST_COST, PERSON_HASH_PRODUCTION_COST } from '../shared/core/identity/person-id';

const secret = (name: string) => z.string({ error: `${name} is required` }).min(16, `${name} must be at least 16 characters`);

const items = (raw: string) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

const commaList = z.string().default('').transform(items);

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

const absoluteUrl = z.string().url('must be an absolute URL');

const httpsUrl = absoluteUrl.refine(
  (value) => value.startsWith('https://'),
  'must be an https:// URL (a token is never sent over plain HTTP)',
);

const clientId = z.guid('must be the client id (a GUID) of a user-assigned managed identity');

// The Functions host reads these same names for its own connection.
const storageIdentityParts = [
  'AzureWebJobsStorage__queueServiceUri',
  'AzureWebJobsStorage__blobServiceUri',
  'AzureWebJobsStorage__credential',
  'AzureWebJobsStorage__clientId',
] as const;

// An account key, a SAS, or Azurite's development shortcut.
const carriesCredential = (connection: string) =>
  /(?:^|;)\s*(?:AccountKey|SharedAccessSignature)\s*=\s*[^;\s]/i.test(connection) ||
  /(?:^|;)\s*UseDevelopmentStorage\s*=\s*true/i.test(connection);

// A connection string or the identity shape, never a mix: the Functions host reads the same for its triggers and leases.
const storageShape = z
  .object({
    AzureWebJobsStorage: z.string().min(1).optional(),
    AzureWebJobsStorage__queueServiceUri: httpsUrl.optional(),
    AzureWebJobsStorage__blobServiceUri: httpsUrl.optional(),
    AzureWebJobsStorage__credential: z
      .literal('managedidentity', 'must be managedidentity (the only identity the Functions host and the app both use)')
      .optional(),
    AzureWebJobsStorage__clientId: clientId.optional(),
  })
  .superRefine((value, ctx) => {
    const problem = (setting: string, message: string) => ctx.addIssue({ code: 'custom', path: [setting], message });
    const identityParts = storageIdentityParts.filter((name) => value[name] !== undefined);
    if (value.AzureWebJobsStorage !== undefined) {
      // A connection string wins in the Functions host, so identity settings beside it would be silently ignored.
      for (const name of identityParts) {
        problem(
          name,
          `set either AzureWebJobsStorage (a connection string) or the identity settings (AzureWebJobsStorage__queueServiceUri …), not both: beside a connection string ${name} is ignored`,
        );
      }
      if (!carriesCredential(value.AzureWebJobsStorage)) {
        problem(
          'AzureWebJobsStorage',
          'the connection string carries no AccountKey, SharedAccessSignature or UseDevelopmentStorage=true, so every call would go without credentials; use the identity settings for keyless access',
        );
      }
      return;
    }
    if (identityParts.length === 0) {
      problem(
        'AzureWebJobsStorage',
        'set AzureWebJobsStorage (a connection string) or AzureWebJobsStorage__queueServiceUri with __blobServiceUri, __credential and __clientId (managed identity)',
      );
      return;
    }
    if (value.AzureWebJobsStorage__queueServiceUri === undefined) {
      problem('AzureWebJobsStorage__queueServiceUri', `is required when ${identityParts.join(', ')} is set: it is where the hits queue is`);
    }
    if (value.AzureWebJobsStorage__blobServiceUri === undefined) {
      problem(
        'AzureWebJobsStorage__blobServiceUri',
        'is required with the identity settings: the Functions host keeps its keys and timer leases in blobs',
      );
    }
    if (value.AzureWebJobsStorage__credential === undefined) {
      // Without it the host and a default credential chain would take whatever identity the machine has, or none.
      problem(
        'AzureWebJobsStorage__credential',
        'must be set to managedidentity with the identity settings, so the host and the app use the managed identity and nothing else',
      );
    }
  });

// A missing endpoint is refused, never read as memory, since every restart and other instance would lose what memory holds.
// An endpoint with neither a key nor a client id is refused rather than left to a default credential chain.
const cosmosShape = z
  .object({
    STORE: z.enum(['cosmos', 'memory'], 'must be cosmos (Cosmos DB at COSMOS_ENDPOINT) or memory').default('cosmos'),
    COSMOS_ENDPOINT: absoluteUrl.optional(),
    COSMOS_KEY: z.string().min(1).optional(),
    COSMOS_CLIENT_ID: clientId.optional(),
    COSMOS_DATABASE: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,255}$/)
      .default('headcount'),
    COSMOS_CONTAINER: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,255}$/)
      .default('activity'),
  })
  .superRefine((value, ctx) => {
    const problem = (setting: string, message: string) => ctx.addIssue({ code: 'custom', path: [setting], message });
    const keyed = value.COSMOS_KEY !== undefined;
    const identity = value.COSMOS_CLIENT_ID !== undefined;
    if (value.STORE === 'memory') {
      // Memory beside a Cosmos DB setting: the setting would be silently ignored, and the records lost on restart.
      const beside = (['COSMOS_ENDPOINT', 'COSMOS_KEY', 'COSMOS_CLIENT_ID'] as const).filter((name) => value[name] !== undefined);
      if (beside.length > 0)
        problem('STORE', `is memory beside ${beside.join(', ')}: set STORE=cosmos to use Cosmos DB, or remove ${beside.join(', ')}`);
      return;
    }
    if (value.COSMOS_ENDPOINT === undefined) {
      if (keyed || identity) problem('COSMOS_ENDPOINT', 'COSMOS_ENDPOINT is required when COSMOS_KEY or COSMOS_CLIENT_ID is set');
      else
        problem(
          'COSMOS_ENDPOINT',
          'is required: the Cosmos DB endpoint the records are kept in (or STORE=memory, locally only, to keep them in memory and lose them on restart)',
        );
      return;
    }
    if (keyed && identity) problem('COSMOS_KEY', 'set either COSMOS_KEY (key auth) or COSMOS_CLIENT_ID (managed identity), not both');
    if (!keyed && !identity) {
      problem(
        'COSMOS_ENDPOINT',
        'is set without COSMOS_KEY (key auth, the local server) or COSMOS_CLIENT_ID (managed identity): set one, or the client would have no credentials',
      );
    }
    if (identity && !value.COSMOS_ENDPOINT.startsWith('https://')) {
      problem('COSMOS_ENDPOINT', 'must be an https:// URL with COSMOS_CLIENT_ID (a token is never sent over plain HTTP)');
    }
  });

/** In Azure each is a Key Vault reference, never a plain value. */
export const SECRET_SETTINGS = ['HASH_KEY', 'INGEST_KEY', 'OPERATOR_KEY'] as const;

const appShape = z.object({
  HASH_KEY: secret('HASH_KEY'),
  INGEST_KEY: secret('INGEST_KEY'),
  OPERATOR_KEY: secret('OPERATOR_KEY'),
  /** How long an Admin session lasts unused, in hours; it is renewed while used. */
  ADMIN_SESSION_HOURS: wholeNumberText(1, 168, 8),
  ALLOWED_ORIGINS: commaList.pipe(z.array(origin)),
  /** `name=origin,origin|name=…`; without it, one site of ALLOWED_ORIGINS. */
  SITES: sitesSetting,
  /** An IANA name: the zone of every site whose days SITES does not give a zone of its own. */
  TIME_ZONE: timeZoneSetting,
  TRUSTED_PROXY_HOPS: wholeNumberText(0, 10, 0),
  SELF_NETWORKS: commaList.pipe(z.array(cidr)),
  SELF_AGENT_TAG: z.string().trim().min(3, 'SELF_AGENT_TAG must be at least 3 characters').default('headcount-self'),
  IGNORED_PATHS: z.string().default('/api/admin,/admin').transform(items).pipe(z.array(path)),
  /** At most 7: a day's secret lives until its last hit may arrive, and no longer. */
  HIT_MAX_AGE_DAYS: wholeNumberText(1, 7, 7),
  /** log2 of scrypt's N for the person id; lower only for tests and local runs (refused in Azure). */
  PERSON_HASH_COST: wholeNumberText(PERSON_HASH_LOWEST_COST, PERSON_HASH_HIGHEST_COST, PERSON_HASH_PRODUCTION_COST),
  /** `hash` is the person hash with no cookie; `cookie` a first-party visitor_id cookie, for a site with consent. */
  IDENTITY_MODE: z.enum(['hash', 'cookie'], 'must be hash or cookie').default('hash'),
  /** A visitor's scans of one subject count at most once per this many seconds; 0 is no limit. */
  SUBJECT_SCAN_INTERVAL_SECONDS: wholeNumberText(0, 86_400, 60),
  /** A scan this soon after the visitor's previous one of the subject is a reload: the same scan. */
  SUBJECT_REFRESH_SECONDS: wholeNumberText(0, 3_600, 10),
  FUNNEL_STEPS: funnelStepsSetting,
  /** `name=event:signup` or `name=path:/pricing,/pricing/`, split by `|`. */
  GOALS: goalsSetting,
  /** The goal whose people the pulse carries: "312 people have downloaded the CV". */
  PULSE_GOAL: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be the name of a goal in GOALS')
    .optional(),
  /** A write in flight lands within this; Cosmos DB commits within a second, and 10 s still folds a hit within two runs. */
  FOLD_SETTLE_SECONDS: wholeNumberText(1, 50, 10),
  HITS_QUEUE: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, 'must be a valid queue name')
    // Queue names end at 63 characters, and the longest made from it is `<HITS_QUEUE>-imports-poison`.
    .max(48, 'must be at most 48 characters: the imports queue is <HITS_QUEUE>-imports, and its poison queue <HITS_QUEUE>-imports-poison')
    .default('hits'),
  /** 0 is never. */
  REPLAY_MAX: wholeNumberText(0, 100, 3),
  /** Milliseconds the first request of a batch waits to share its message; a lone request waits this long, no more. */
  INGEST_WINDOW_MS: wholeNumberText(0, 1_000, 25),
  /** A batch that reaches it is sent at once, and a request with more is split. */
  INGEST_MESSAGE_MAX_HITS: wholeNumberText(1, 500, 100),
  /** The app's own address, that the links in mail start with; in Azure, its host name unless set (see readSettings). */
  APP_URL: absoluteUrl.default('http://localhost:7071'),
  /** Azure Communication Services' endpoint; unset, mail is written to EMAIL_OUTBOX instead. */
  EMAIL_ENDPOINT: httpsUrl.optional(),
  /** The From address of the Email service's domain, such as `DoNotReply@<id>.azurecomm.net`. */
  EMAIL_SENDER: z.email('must be an email address').optional(),
  /** The folder mail is written to when EMAIL_ENDPOINT is unset. */
  EMAIL_OUTBOX: z.string().min(1).default('.local-data/outbox'),
});

/** Exported so test/infra can list every setting from its shape. */
export const settingsSchema = z.intersection(z.intersection(appShape, storageShape), cosmosShape);

export type Settings = z.infer<typeof settingsSchema>;

/** Named so an operator can fix it. */
export interface SettingsProblem {
  setting: string;
  message: string;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: SettingsProblem[] };

/** Only these: HASH_KEY is never refused for its strength, since replacing it starts every count again. */
const GUESSABLE_KEYS = ['OPERATOR_KEY', 'INGEST_KEY'] as const;

/** The command the refusal names makes a key of 32 random bytes. */
const MAKE_KEY = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))" (or openssl rand -base64 32)`;

/** 32 bytes in base64 without its padding; bicep asks as many of OPERATOR_KEY and INGEST_KEY. */
export const STRONG_KEY_CHARACTERS = 43;

/** 32 random bytes as such commands write them: 43 or more base64 or base64url characters, or 64 or more hex digits. */
export function strongKey(value: string): boolean {
  const body = value.replace(/={1,2}$/, '');
  if (new Set(body).size < 8 || !/^[A-Za-z0-9+/_-]+$/.test(body)) return false;
  return /^[0-9a-fA-F]+$/.test(body) ? body.length >= 64 : body.length >= STRONG_KEY_CHARACTERS;
}

/** In Azure, where WEBSITE_INSTANCE_ID is set, memory is refused: every restart, scale-in and other instance would lose it. */
function azureRefusals(present: Record<string, string | undefined>): SettingsProblem[] {
  if (present.WEBSITE_INSTANCE_ID === undefined) return [];
  const problems: SettingsProblem[] = GUESSABLE_KEYS.filter((name) => present[name] !== undefined && !strongKey(present[name])).map(
    (setting) => ({
      setting,
      message: `is weaker than 32 random bytes, which Azure refuses (WEBSITE_INSTANCE_ID is set): make one with ${MAKE_KEY}`,
    }),
  );
  if (present.STORE === 'memory') {
    problems.push({
      setting: 'STORE',
      message:
        'is memory, which is refused in Azure (WEBSITE_INSTANCE_ID is set): each restart and each other instance would lose the records',
    });
  }
  if (present.COSMOS_ENDPOINT === undefined) {
    problems.push({
      setting: 'COSMOS_ENDPOINT',
      message: 'is required in Azure (WEBSITE_INSTANCE_ID is set): the records are kept in Cosmos DB there, never in memory',
    });
  }
  if (Number(present.PERSON_HASH_COST ?? PERSON_HASH_PRODUCTION_COST) < PERSON_HASH_PRODUCTION_COST) {
    problems.push({
      setting: 'PERSON_HASH_COST',
      message: `is below ${PERSON_HASH_PRODUCTION_COST}, which is refused in Azure (WEBSITE_INSTANCE_ID is set): the key would let the address space be searched in less than years`,
    });
  }
  return problems;
}

/** Never throws. */
export function readSettings(env: Record<string, string | undefined>): SettingsResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = settingsSchema.safeParse(present);
  const azure = azureRefusals(present);
  if (!parsed.success || azure.length > 0) {
    const schema = parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({ setting: String(issue.path[0] ?? 'settings'), message: issue.message }));
    // Azure's own words for a setting come first; the schema's would only repeat them.
    return {
      ok: false,
      problems: [...azure, ...schema.filter((problem) => !azure.some((refused) => refused.setting === problem.setting))],
    };
  }
  const { PULSE_GOAL, GOALS, SITES, ALLOWED_ORIGINS, EMAIL_ENDPOINT, EMAIL_SENDER } = parsed.data;
  if ((EMAIL_ENDPOINT === undefined) !== (EMAIL_SENDER === undefined))
    return { ok: false, problems: [{ setting: 'EMAIL_SENDER', message: 'is set with EMAIL_ENDPOINT, or neither is set' }] };
  if (SITES !== undefined && ALLOWED_ORIGINS.length > 0)
    return { ok: false, problems: [{ setting: 'ALLOWED_ORIGINS', message: 'is replaced by SITES: give each site its origins there' }] };
  const sites = declaredSites(SITES, ALLOWED_ORIGINS, parsed.data.TIME_ZONE).map((site) => site.name);
  const astray = GOALS.find((goal) => goal.site !== undefined && !sites.includes(goal.site));
  if (astray !== undefined)
    return { ok: false, problems: [{ setting: 'GOALS', message: `goal ${astray.name} names ${astray.site ?? ''}, no site declared` }] };
  if (PULSE_GOAL !== undefined && !GOALS.some((goal) => goal.name === PULSE_GOAL))
    return {
      ok: false,
      problems: [{ setting: 'PULSE_GOAL', message: `names no goal in GOALS (${GOALS.map((goal) => goal.name).join(', ') || 'none set'})` }],
    };
  // Azure names the app's host; a custom domain is APP_URL's to say.
  const host = present.APP_URL === undefined ? present.WEBSITE_HOSTNAME : undefined;
  return { ok: true, settings: host === undefined ? parsed.data : { ...parsed.data, APP_URL: `https://${host}` } };
}

export function describeProblems(problems: SettingsProblem[]): string {
  return ['headcount cannot start: settings are missing or malformed', ...problems.map((p) => `  ${p.setting}: ${p.message}`)].join('\n');
}
