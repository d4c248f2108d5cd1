import { ok, type Result } from '../../shared/core/result';
import type { Site } from '../../shared/core/sites/sites';

export const listSites = async (sites: readonly Site[]): Promise<Result<{ sites: string[]; all: boolean }>> =>
  ok({ sites: sites.map((site) => site.name), all: sites.length > 1 });
