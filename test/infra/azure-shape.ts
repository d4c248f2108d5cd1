import { z } from 'zod';
import { readSettings, SECRET_SETTINGS, settingsSchema } from '../../host/settings';

/** A client id as Azure gives one (any GUID). */
export const CLIENT_ID = '8f0c3a52-1d2e-4c8b-9a7e-2f6b5c4d3e21';

/** What a Key Vault reference resolves to at run time: a secret long enough for the schema. */
export const RESOLVED_SECRET = 'resolved-from-key-vault-0123456789abcdefghijk';

/** Settings in the shape the Function App has in Azure: endpoints, the identity, no keys (secrets already resolved). */
export const AZURE_SHAPE: Record<string, string> = {
  AzureWebJobsStorage__queueServiceUri: 'https://stexample.queue.core.windows.net/',
  AzureWebJobsStorage__blobServiceUri: 'https://stexample.blob.core.windows.net/',
  AzureWebJobsStorage__credential: 'managedidentity',
  AzureWebJobsStorage__clientId: CLIENT_ID,
  COSMOS_ENDPOINT: 'https://cosmos-example.documents.azure.com:443/',
  COSMOS_CLIENT_ID: CLIENT_ID,
  EMAIL_ENDPOINT: 'https://acs-example.europe.communication.azure.com',
  EMAIL_SENDER: 'DoNotReply@00000000-0000-0000-0000-000000000000.azurecomm.net',
  HASH_KEY: RESOLVED_SECRET,
  INGEST_KEY: RESOLVED_SECRET,
  OPERATOR_KEY: RESOLVED_SECRET,
};

// A plausible value for a setting the schema names as missing, by what kind of setting it is.
function sampleFor(setting: string): string {
  if ((SECRET_SETTINGS as readonly string[]).includes(setting)) return RESOLVED_SECRET;
  if (setting in AZURE_SHAPE) return AZURE_SHAPE[setting]!;
  throw new Error(`the schema requires ${setting}, which this test has no sample for: add one, and set it in infra/app/api.bicep`);
}

/**
 * The settings the schema itself requires in the Azure shape. The shape is chosen by its endpoints (the queue's, and
 * Cosmos DB's with the identity); from there each parse names what is still missing, until the schema is satisfied.
 */
export function requiredInAzureShape(): string[] {
  const env: Record<string, string> = {
    AzureWebJobsStorage__queueServiceUri: AZURE_SHAPE.AzureWebJobsStorage__queueServiceUri!,
    COSMOS_ENDPOINT: AZURE_SHAPE.COSMOS_ENDPOINT!,
    COSMOS_CLIENT_ID: AZURE_SHAPE.COSMOS_CLIENT_ID!,
  };
  for (let round = 0; round < 10; round += 1) {
    const read = readSettings(env);
    if (read.ok) return Object.keys(env).sort();
    for (const { setting, message } of read.problems) {
      if (setting in env) throw new Error(`${setting} is set and still refused: ${message}`);
      env[setting] = sampleFor(setting);
    }
  }
  throw new Error('the schema kept naming new settings');
}

/** The defaults the schema gives the settings that have one (queue, database and container names…). */
export function schemaDefaults() {
  const read = readSettings(AZURE_SHAPE);
  if (!read.ok) throw new Error(`the Azure shape is refused: ${JSON.stringify(read.problems)}`);
  return read.settings;
}

/** The shortest secret the schema accepts, found by asking it. */
export function secretMinimum(): number {
  for (let length = 1; length <= 256; length += 1) {
    const read = readSettings({ ...AZURE_SHAPE, HASH_KEY: 'k'.repeat(length) });
    if (read.ok) return length;
  }
  throw new Error('no secret length is accepted');
}

// The setting names an object schema declares, through the intersections the settings schema is made of.
function namesIn(schema: z.core.$ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodIntersection) return [...namesIn(schema.def.left), ...namesIn(schema.def.right)];
  throw new Error(`the settings schema holds a ${schema._zod.def.type}, which test/infra cannot list settings from yet: teach namesIn`);
}

/** Every setting the schema knows, required or not, read from its shape. */
export function settingNames(): string[] {
  return namesIn(settingsSchema);
}
