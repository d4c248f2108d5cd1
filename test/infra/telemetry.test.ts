import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadFunctions } from '../../local/host';

const hostJson = z
  .object({
    logging: z.object({
      logLevel: z.record(z.string(), z.string()),
      applicationInsights: z.object({
        samplingSettings: z.object({
          isEnabled: z.boolean(),
          maxSamplingPercentage: z.number(),
          includedTypes: z.string().optional(),
          excludedTypes: z.string().optional(),
        }),
      }),
    }),
  })
  .parse(JSON.parse(readFileSync(join(__dirname, '..', '..', 'host.json'), 'utf8')));

const sampling = hostJson.logging.applicationInsights.samplingSettings;
const sampled = (sampling.includedTypes ?? '').split(';').map((type) => type.trim());

describe('telemetry that costs what it is worth (host.json)', () => {
  it('samples the request records, at most maxSamplingPercentage of them whatever the traffic', () => {
    expect(sampling.isEnabled).toBe(true);
    expect(sampled).toContain('Request');
    expect(sampling.maxSamplingPercentage).toBeLessThanOrEqual(10);
    expect(sampling.excludedTypes).toBeUndefined();
  });

  it('never samples exceptions or log lines (failures, 503s, poison moves): only the types it names are sampled', () => {
    expect(sampled).not.toContain('Exception');
    expect(sampled).not.toContain('Trace');
    expect(sampled).not.toContain('Event');
  });

  it('keeps only warnings and errors from the functions that run once a hit or a message, by their registered names', async () => {
    const names = (await loadFunctions()).map((registration) => registration.name);
    for (const name of ['ingest-beacon', 'ingest-hits', 'keep-hits', 'import-hits', 'keep-imports']) {
      expect(names).toContain(name);
      expect(hostJson.logging.logLevel[`Function.${name}`]).toBe('Warning');
    }
  });
});
