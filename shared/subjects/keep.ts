import type { HitsMessage, QueuedHit } from '../hits/message';
import { kindOf } from '../identity/kinds';
import type { Clock } from '../ports/clock';
import type { Receipts } from '../store/receipts';
import { appliedWith, pendingWith } from '../keeping/applied';
import { Coalesced } from '../keeping/coalesced';
import { applySubjectDelta, isNoSubjectDelta, noSubjectDelta, plusSubject } from './delta';
import type { SubjectDelta, SubjectsStore, SubjectVisitor } from './documents';
import type { ScanRules } from './scan-rule';
import { scannedVisitor } from './visitor';
import { errorLine } from '../errors';

/** Keeping a message's subject scans: done (or found done before), or the store could not answer (the queue retries). */
export type SubjectKeeper = (message: HitsMessage) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** One subject's scans in one message: each person's instants (oldest first), and the scans kept apart. */
interface SubjectScans {
  people: Map<string, string[]>;
  scanners: number;
  self: number;
}

/** The message's hits that name a subject, grouped by subject; who scanned is the one rule (kindOf) over each hit. */
export function scansOf(hits: readonly QueuedHit[]): Map<string, SubjectScans> {
  const subjects = new Map<string, SubjectScans>();
  for (const hit of hits) {
    if (hit.subject === null) continue;
    const scans = subjects.get(hit.subject) ?? { people: new Map<string, string[]>(), scanners: 0, self: 0 };
    subjects.set(hit.subject, scans);
    const who = kindOf(hit.self, 1, hit.bot ? 1 : 0);
    if (who === 'self' || hit.person === null) scans.self += 1;
    else if (who === 'scanners') scans.scanners += 1;
    else scans.people.set(hit.person, [...(scans.people.get(hit.person) ?? []), hit.at]);
  }
  for (const scans of subjects.values()) for (const instants of scans.people.values()) instants.sort();
  return subjects;
}


/**
 * The subjects step of keep-hits, run before the rest of keeping so the message's receipt (written last by keeping)
 * covers it. Like keeping, every write is conditional and carries the message id: each visitor's document keeps its
 * change to the summary under the message id, the summary lists the message ids it has applied, and a message with a
 * receipt is finished. A scan at or before the latest one judged changes nothing (see scan-rule.ts), so judging the same
 * message again counts nothing twice.
 */
export function subjectKeeper(store: { subjects: SubjectsStore; receipts: Receipts }, clock: Clock, rules: ScanRules): SubjectKeeper {
  const now = () => Math.floor(clock.now().getTime() / 1000);
  // Scans of one subject at once share the writes of its documents (see shared/keeping/coalesced.ts).
  const visitors = new Coalesced(store.subjects.visitors);
  const summaries = new Coalesced(store.subjects.summaries);

  const keepVisitor = async (id: string, subject: string, identity: string, instants: string[]): Promise<SubjectDelta> => {
    let delta = noSubjectDelta();
    await visitors.change(
      [subject, identity],
      async (current: SubjectVisitor | null) => {
        const mine = current?.pending[id];
        if (mine) {
          const { at: _at, ...kept } = mine;
          delta = kept;
          return null;
        }
        const scanned = scannedVisitor(current, subject, identity, instants, rules);
        delta = scanned?.delta ?? noSubjectDelta();
        if (!scanned) return null;
        const pending = await pendingWith(current?.pending ?? {}, id, isNoSubjectDelta(delta) ? null : delta, store.receipts, now);
        return { ...scanned.visitor, pending };
      },
      `subject visitor ${subject}:${identity.slice(0, 8)}`,
    );
    return delta;
  };

  const keepSubject = async (id: string, subject: string, scans: SubjectScans) => {
    const deltas = await Promise.all([...scans.people].map(([identity, instants]) => keepVisitor(id, subject, identity, instants)));
    const delta = deltas.reduce(plusSubject, { ...noSubjectDelta(), scanners: scans.scanners, self: scans.self });
    if (isNoSubjectDelta(delta)) return;
    await summaries.change(
      [subject],
      async (current) => {
        if (current?.applied[id] !== undefined) return null;
        const next = applySubjectDelta(subject, current, delta);
        next.applied = await appliedWith(next.applied, id, store.receipts, now);
        return next;
      },
      `subject summary ${subject}`,
    );
  };

  return async (message) => {
    const subjects = scansOf(message.hits);
    if (subjects.size === 0) return { ok: true };
    try {
      if ((await store.receipts.read(message.id)) !== null) return { ok: true };
      await Promise.all([...subjects].map(([subject, scans]) => keepSubject(message.id, subject, scans)));
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: errorLine(error) };
    }
  };
}
