import { oneZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';
import type { Store } from '../../shared/core/store';
import { periodReport, type ActivityDeps } from '../../shared/read/activity/report';
import { activityQuerySchema } from '../../shared/contract/queries';
import { query as readQuery } from '../../host/http/input';
import { operatorRead } from '../../host/http/route';
import { funnelStepsSetting } from '../../shared/core/funnel';
import { testAccess } from './access';
import type { IncomingRequest } from '../../host/http/request';
import type { Clock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';

const KEY = 'test-operator-key-0123456789';

/** A GET of the card with the operator key and this query. */
const request = (query: string): IncomingRequest => ({
  method: 'GET',
  header: (name) => (name === 'x-operator-key' ? KEY : null),
  query: new URLSearchParams(query),
  params: {},
  text: () => Promise.resolve(''),
});

/** The period report's use case on a store, asked with a query string, answering its status and body. */
export function cardOf(store: Store, clock: Clock, more: Partial<ActivityDeps> = {}) {
  const deps: ActivityDeps = {
    store,
    clock,
    logger: memoryLogger(),
    funnel: funnelStepsSetting.parse(undefined),
    goals: [],
    zone: zoneOf('UTC'),
    days: () => Promise.resolve(oneZone(zoneOf('UTC'))),
    ...more,
  };
  const operator = {
    operatorKey: KEY,
    hashKey: 'test-hash-key-0123456789',
    access: testAccess(clock),
  };
  return async (query: string) => {
    const answer = await operatorRead(request(query), operator, readQuery(activityQuerySchema), (asked) => periodReport(asked, deps));
    return { status: answer.status, body: answer.body as any };
  };
}
