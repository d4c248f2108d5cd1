import { ok, type Result } from '../../shared/core/result';
import type { Site } from '../../shared/core/sites/sites';
import type { SiteListAnswer } from '../../shared/contract/links';

export const listSites = async (sites: readonly Site[]): Promise<Result<SiteListAnswer>> =>
  ok({ sites: sites.map((site) => site.name), all: sites.length > 1 });
