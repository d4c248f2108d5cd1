import type { Clock } from '../core/ports/clock';
import type { HitSender } from '../core/ports/queue';
import type { Logger } from '../core/ports/logger';
import { classify, type Classified, type IdentityRules, type SeenRequest } from './classify';
import type { QueuedHit } from '../core/message';
import { badRequest, fail, ok, type Result } from '../core/result';
import type { PersonIds } from '../core/identity/person-id';
import { withPersonIds } from './persons';
import { secretsOfDays, type DaySecretKeeper } from './day-secrets';

export interface IngestDeps {
  rules: IdentityRules;
  /** The secret of each day, which its tokens are made with. */
  secrets: DaySecretKeeper;
  persons: PersonIds;
  sender: HitSender;
  clock: Clock;
  logger: Logger;
}

export interface IngestOutcome {
  accepted: number;
  ignored: number;
}

/** The addresses and agents end here: only hashed hits go on the queue, and nothing of a request is logged. */
export async function ingest(requests: readonly SeenRequest[], deps: IngestDeps): Promise<Result<IngestOutcome>> {
  const secrets = await secretsOfDays(requests, deps);
  if (!secrets.ok) return secrets;
  const classified = await withPersonIds(
    requests,
    requests.map((request, index) => {
      const days = secrets.value[index]!;
      return days ? classify(request, deps.rules, days.secret, days) : TOO_OLD;
    }),
    deps.persons,
  );
  return enqueueClassified(classified, deps);
}

/** Its day's secret is gone: the day can receive no more hits. */
const TOO_OLD: Classified = { counted: false, reason: 'too-old' };

/** A beacon is classified once, before its scan, and its verdict carried here. */
export async function enqueueClassified(
  classified: readonly Classified[],
  deps: Pick<IngestDeps, 'sender'>,
): Promise<Result<IngestOutcome>> {
  const hits: QueuedHit[] = [];
  for (const result of classified) if (result.counted) hits.push(result.hit);
  const ignored = classified.length - hits.length;
  if (hits.length === 0) return ok({ accepted: 0, ignored });
  // The sender logs a failed send once for all the requests it answers at once, not once a request.
  const sent = await deps.sender.enqueue(hits);
  if (!sent.ok) {
    return fail({ status: 503, code: 'queue_unavailable', message: 'the queue cannot take hits right now; nothing was kept, retry later' });
  }
  return ok({ accepted: hits.length, ignored });
}

export function checkAt(at: Date, now: Date, maxAgeDays: number, maxFutureMs: number, field: string): Result<Date> {
  if (at.getTime() < now.getTime() - maxAgeDays * 86_400_000) {
    return fail(badRequest([{ path: field, message: `is older than ${maxAgeDays} days` }]));
  }
  if (at.getTime() > now.getTime() + maxFutureMs) {
    return fail(badRequest([{ path: field, message: 'is more than five minutes in the future' }]));
  }
  return ok(at);
}
