import { z } from 'zod';
import { instant } from './common';
import { ActivityCard } from './activity';
import { PeopleCount } from './count';

// The answers of the sites' list and the shared links' routes (link-routes.ts).

export const SharedLinkRow = z
  .object({
    ref: z.string().meta({ description: 'The link in the list and in its revoking; it opens nothing.' }),
    site: z.string(),
    label: z.string(),
    filters: z.array(z.string()),
    days: z.string().nullable(),
    created_at: instant(),
    expires_at: instant().nullable(),
    password: z.boolean().meta({ description: 'Whether the link asks for a password (never the password).' }),
    revoked_at: instant().nullable(),
  })
  .meta({ id: 'SharedLinkRow', description: 'A shared link as the list shows it: never its token.' });

export const SharedLinkMade = z
  .object({ token: z.string().meta({ description: 'Given once, here; kept nowhere (only its keyed hash).' }), link: SharedLinkRow })
  .meta({ id: 'SharedLinkMade' });

export const SiteList = z
  .object({
    sites: z.array(z.string()).meta({ description: 'The sites SITES declares, the first first.' }),
    all: z.boolean().meta({ description: 'Whether `site=*` reads several sites together.' }),
  })
  .meta({ id: 'SiteList' });

export const SharedLinks = z.object({ links: z.array(SharedLinkRow) }).meta({ id: 'SharedLinks' });

export const SharedLinkRevoked = z.object({ link: SharedLinkRow }).meta({ id: 'SharedLinkRevoked' });

export const SharedPeople = PeopleCount.extend({
  link: z.object({ site: z.string(), label: z.string(), filters: z.array(z.string()), days: z.string().nullable() }),
}).meta({ id: 'SharedPeople', description: "The count of a shared link's site, and what the link fixes." });

export const LINK_ANSWERS = [ActivityCard, SiteList, SharedLinks, SharedLinkMade, SharedLinkRevoked, SharedPeople];

export type SiteListAnswer = z.infer<typeof SiteList>;
export type SharedLinksAnswer = z.infer<typeof SharedLinks>;
export type SharedLinkMadeAnswer = z.infer<typeof SharedLinkMade>;
export type SharedPeopleAnswer = z.infer<typeof SharedPeople>;
export type SharedLinkRevokedAnswer = z.infer<typeof SharedLinkRevoked>;
export type SharedLinkRowAnswer = z.infer<typeof SharedLinkRow>;
