import type { Clock } from '../../core/ports/clock';
import { badRequest, fail, ok, type Result } from '../../core/result';
import { utcDay } from '../../core/identity/tokens';
import { sameJson } from '../../core/same-json';
import type { ConfigSource } from '../../core/config/source';
import type { ConfigDoc, ConfigDocs } from '../../core/store/config';
import type { ConfigAnswerBody, ConfigBody } from '../../contract/config';

export interface ConfigAdminDeps {
  docs: ConfigDocs;
  source: ConfigSource;
  clock: Clock;
}

/** An HTTP entity tag is quoted; Cosmos DB's `_etag` is, its local stand-in's is not. */
const quoted = (etag: string) => (etag.startsWith('"') ? etag : `"${etag}"`);

/** The configuration and its version, answered as the `ETag`. */
export interface ConfigRead {
  config: ConfigAnswerBody;
  etag: string;
}

const answerOf = ({ sites, goals, funnels, segments, annotations, email }: ConfigDoc): ConfigRead['config'] => ({
  sites,
  goals: goals.map(({ seeded: _seeded, ...goal }) => goal),
  funnels,
  segments,
  annotations,
  email: email ?? [],
});

export async function readConfig(deps: ConfigAdminDeps): Promise<Result<ConfigRead>> {
  // The store's own read, so an ETag answered is never older than what another instance wrote.
  deps.source.forget();
  const read = await deps.source.current();
  return ok({ config: answerOf(read.doc), etag: quoted(read.etag) });
}

/** A goal or funnel unchanged keeps the day it was added (and whether the settings seeded it); a new or changed one is added today. */
function kept<T extends { added: string; seeded?: true }>(before: readonly T[], item: Omit<T, 'added' | 'seeded'>, today: string): T {
  const same = before.find((one) => sameJson({ ...one, added: undefined, seeded: undefined }, item));
  return { ...item, added: same?.added ?? today, ...(same?.seeded === true ? { seeded: true } : {}) } as T;
}

const stale = () =>
  fail({
    status: 412,
    code: 'stale',
    message: 'If-Match: the configuration was changed since you read it; read it again and make your change on the new one',
  });

/** Replaces the version named by `If-Match`, so of two editors the second is told the first changed it. */
export async function writeConfig(asked: { ifMatch: string | null; body: ConfigBody }, deps: ConfigAdminDeps): Promise<Result<ConfigRead>> {
  if (asked.ifMatch === null)
    return fail({
      status: 428,
      code: 'precondition_required',
      message: 'If-Match: is required: send the ETag of the configuration you read',
    });
  deps.source.forget();
  const current = await deps.source.current();
  if (quoted(current.etag) !== asked.ifMatch) return stale();
  const first = current.doc.sites[0]!.name;
  // The first site's documents carry no site name in their keys, so it is never removed nor moved.
  if (asked.body.sites[0]!.name !== first)
    return fail(
      badRequest([{ path: 'sites.0.name', message: `must stay ${first}: the first site keeps the deployment's first documents` }]),
    );
  const today = utcDay(deps.clock.now());
  const { goals, funnels, ...rest } = asked.body;
  const doc: ConfigDoc = {
    ...current.doc,
    ...rest,
    goals: goals.map(({ added: _added, ...goal }) => kept(current.doc.goals, goal, today)),
    funnels: funnels.map(({ added: _added, ...funnel }) => kept(current.doc.funnels, funnel, today)),
  };
  if ((await deps.docs.replace(doc, current.etag)) === 'stale') return stale();
  deps.source.forget();
  return readConfig(deps);
}
