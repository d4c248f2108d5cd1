import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const timespan = z
  .string()
  .regex(/^\d{2}:\d{2}:\d{2}$/, 'must be hh:mm:ss')
  .transform((value) => {
    const [h, m, s] = value.split(':').map(Number) as [number, number, number];
    return ((h * 60 + m) * 60 + s) * 1000;
  });

const hostJsonSchema = z.object({
  version: z.literal('2.0'),
  extensions: z
    .object({
      http: z.object({ routePrefix: z.string().default('api') }).default({ routePrefix: 'api' }),
      queues: z
        .object({
          batchSize: z.number().int().min(1).max(32).default(16),
          newBatchThreshold: z.number().int().min(0).optional(),
          maxDequeueCount: z.number().int().min(1).default(5),
          visibilityTimeout: timespan.default(0),
          maxPollingInterval: timespan.default(60_000),
          messageEncoding: z.enum(['base64', 'none']).default('base64'),
        })
        .prefault({}),
    })
    .prefault({}),
});

/** Times in milliseconds. */
export type HostJson = z.infer<typeof hostJsonSchema>;

/** A malformed file stops the host with the field named. */
export function readHostJson(root: string = join(__dirname, '..')): HostJson {
  const raw: unknown = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8'));
  const parsed = hostJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`host.json: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
