import { z } from 'zod';
import { count, utcDay } from './common';

export const Accepted = z
  .object({
    accepted: count(),
    ignored: count().meta({ description: 'The files a page is made of and IGNORED_PATHS: never counted.' }),
  })
  .meta({ id: 'Accepted' });

export const BeaconAccepted = z
  .object({
    accepted: count(),
    ignored: count(),
    status: z.enum(['new', 'returning']).optional().meta({ description: 'Only when the beacon asked (`status: true`).' }),
    refused_props: z.int().min(1).optional().meta({ description: 'Props dropped because their value could carry a person.' }),
  })
  .meta({ id: 'BeaconAccepted' });

export const ImportAccepted = z
  .object({
    accepted: count().meta({ description: 'Hits queued on the imports queue (or days kept).' }),
    already_kept: count().meta({
      description:
        'Hits (or days) counted but kept already by an earlier import of the same lines: not queued again. A message is taken as kept when its landed note is there (one point read a message).',
    }),
    ignored: count().meta({
      description: 'Requests never counted: methods other than GET and HEAD, redirects, the files a page is made of, IGNORED_PATHS.',
    }),
    skipped: count().meta({ description: 'Requests (or days) after `until`.' }),
    until: utcDay().meta({ description: 'The last day this import takes.' }),
    live_from: utcDay().meta({ description: 'The first day counted live, as the first import fixed it.' }),
    site: z.string().meta({ description: 'The site of SITES the import fills (`site=`, or the first declared).' }),
  })
  .meta({ id: 'ImportAccepted' });

export type AcceptedAnswer = z.infer<typeof Accepted>;
export type BeaconAcceptedAnswer = z.infer<typeof BeaconAccepted>;
export type ImportAcceptedAnswer = z.infer<typeof ImportAccepted>;
