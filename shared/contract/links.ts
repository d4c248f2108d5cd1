import { z } from 'zod';
import { instant } from './common';
import { PeriodReport, GoalRow } from './activity';

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

export const SharedView = z
  .object({
    site: z.string(),
    label: z.string(),
    days: z.string().nullable().meta({ description: "The link's fixed period (`days=`), or null when the viewer picks one." }),
    filters: z.array(z.string()).meta({ description: "The link's fixed filters, which every figure is under." }),
  })
  .meta({ id: 'SharedView', description: 'What a shared link shows: its site, label, period and filters (never its token).' });

export const SharedGoalRow = GoalRow.omit({ people_all_time: true, first_touch: true }).meta({
  id: 'SharedGoalRow',
  description: "A goal's visits that reached it in the period and their share: nothing all time.",
});

// Derived from the admin card: nothing outside the link's site, filters and period (no last hours, no all-time figures,
// no store counters).
export const SharedCard = PeriodReport.omit({ hours: true, cost: true, goals: true })
  .extend({ goals: z.array(SharedGoalRow).nullable(), view: SharedView })
  .meta({
    id: 'SharedCard',
    description:
      "The period report a shared link opens: every figure under the link's site, filters and period, and what the link fixes (`view`).",
  });

export const LINK_ANSWERS = [PeriodReport, SiteList, SharedLinks, SharedLinkMade, SharedLinkRevoked, SharedCard];

export type SiteListAnswer = z.infer<typeof SiteList>;
export type SharedLinksAnswer = z.infer<typeof SharedLinks>;
export type SharedLinkMadeAnswer = z.infer<typeof SharedLinkMade>;
export type SharedCardAnswer = z.infer<typeof SharedCard>;
export type SharedLinkRevokedAnswer = z.infer<typeof SharedLinkRevoked>;
export type SharedLinkRowAnswer = z.infer<typeof SharedLinkRow>;
