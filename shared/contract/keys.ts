import { z } from 'zod';
import { instant } from './common';

// The read-only API keys' routes (key-routes.ts): made, listed and revoked by the operator.

export const keyBodySchema = z.strictObject({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters'),
  site: z.string().max(253).optional().meta({ description: 'A declared site, or `*` for every site; the only site when absent.' }),
});

export const ApiKeyRow = z
  .object({
    ref: z.string().meta({ description: 'The key in the list and in its revoking; it opens nothing.' }),
    name: z.string(),
    site: z.string().meta({ description: 'The site it reads, or `*` for every site.' }),
    created_at: instant(),
    revoked_at: instant().nullable(),
  })
  .meta({ id: 'ApiKeyRow', description: 'An API key as the list shows it: never the key.' });

export const ApiKeyMade = z
  .object({
    key: z
      .string()
      .meta({ description: 'Given once, here; kept nowhere (only its keyed hash). Send it as `Authorization: Bearer <key>`.' }),
    api_key: ApiKeyRow,
  })
  .meta({ id: 'ApiKeyMade' });

export const ApiKeyList = z.object({ keys: z.array(ApiKeyRow) }).meta({ id: 'ApiKeyList' });

export const ApiKeyRevoked = z.object({ api_key: ApiKeyRow }).meta({ id: 'ApiKeyRevoked' });

export type ApiKeyRowAnswer = z.infer<typeof ApiKeyRow>;
export type ApiKeyMadeAnswer = z.infer<typeof ApiKeyMade>;
export type ApiKeyListAnswer = z.infer<typeof ApiKeyList>;
export type ApiKeyRevokedAnswer = z.infer<typeof ApiKeyRevoked>;
