import { ok, type Result } from '../../shared/core/result';
import type { Site } from '../../shared/core/sites/sites';

/** GET /api/admin/sites: the sites declared, the first first, for the dashboard's switcher (and whether there is `*`). */
export const listSites = async (sites: readonly Site[]): Promise<Result<{ sites: string[]; all: boolean }>> =>
  ok({ sites: sites.map((site) => site.name), all: sites.length > 1 });
