import { asOperator, type OperatorSettings } from '../http/admin/auth';
import type { Answer } from '../http/envelope';
import type { IncomingRequest } from '../http/request';
import type { Site } from '../core/sites/sites';

/** GET /api/admin/sites: the sites declared, the first first, for the dashboard's switcher (and whether there is `*`). */
export function listSites(request: IncomingRequest, deps: { sites: readonly Site[]; operator: OperatorSettings }): Promise<Answer> {
  return asOperator(request, deps.operator, async () => ({
    status: 200,
    body: { sites: deps.sites.map((site) => site.name), all: deps.sites.length > 1 },
  }));
}
