import { z } from 'zod';
import { pageMatches } from './events/events';

export interface FunnelStep {
  name: string;
  paths: string[];
}

/** Used when FUNNEL_STEPS is not set. */
export const DEFAULT_FUNNEL_STEPS = 'landing=/|about=/about,/about/|resume=/resume,/resume/,/resume.pdf';

const stepName = /^[a-z][a-z0-9-]{0,31}$/;
const stepPath = /^(?:\/[^\s?#,|=]*|event:[a-z][a-z0-9_-]{0,39})$/;

function readStep(text: string): FunnelStep | string {
  const eq = text.indexOf('=');
  const name = text.slice(0, eq).trim();
  if (eq < 0 || !stepName.test(name)) return `"${text}" must be name=/path,/path with a lowercase name`;
  const paths = text
    .slice(eq + 1)
    .split(',')
    .map((path) => path.trim());
  const bad = paths.find((path) => !stepPath.test(path));
  if (bad !== undefined) return `step ${name}: "${bad}" must be a path starting with / with no query, or event:<name>`;
  return { name, paths };
}

/**
 * FUNNEL_STEPS: `name=/path,/path` steps separated by `|`, in the reader's order, 1 to 12, names unique.
 * A step may name an event instead (`signup=event:signup`).
 */
export const funnelStepsSetting = z
  .string()
  .default(DEFAULT_FUNNEL_STEPS)
  .transform((raw, ctx) => {
    const texts = raw
      .split('|')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (texts.length < 1 || texts.length > 12)
      ctx.addIssue({ code: 'custom', message: 'must name from 1 to 12 steps, like landing=/|about=/about' });
    const steps: FunnelStep[] = [];
    for (const text of texts) {
      const step = readStep(text);
      if (typeof step === 'string') ctx.addIssue({ code: 'custom', message: step });
      else if (steps.some((seen) => seen.name === step.name)) ctx.addIssue({ code: 'custom', message: `step ${step.name} is named twice` });
      else steps.push(step);
    }
    return steps;
  });

/** A step counts under its paths, so renaming a step keeps its days. */
export const stepKey = (step: Pick<FunnelStep, 'paths'>) => step.paths.join(',');

/** A funnel of the configuration: 2 to 8 ordered steps, a step reached by any of its pages (with `*`) or events. */
export interface Funnel {
  name: string;
  steps: ReadonlyArray<{ name: string; pages: readonly string[]; events: readonly string[] }>;
}

/** What a visit did, and each path's and event's (`event:<name>`) first time when its visitor-days kept them all. */
export interface VisitDone {
  events: readonly string[];
  paths: readonly string[];
  firstAt?: Readonly<Record<string, string>>;
}

/** A first time's key: a path as itself, an event as `event:<name>` (a path starts with `/`, so the two never meet). */
export const firstTimeKey = (hit: { path: string; event?: string }) => (hit.event === undefined ? hit.path : `event:${hit.event}`);

type Step = Funnel['steps'][number];

const stepReachedBy = (step: Step, key: string) =>
  key.startsWith('event:') ? step.events.includes(key.slice(6)) : step.pages.some((page) => pageMatches(page, key));

/** Without first times, step k counts when steps 1 to k were all reached that day, in any order. */
function stepsBySet(funnel: Funnel, did: VisitDone): number {
  const at = funnel.steps.findIndex(
    (step) =>
      !did.events.some((event) => step.events.includes(event)) &&
      !did.paths.some((path) => step.pages.some((page) => pageMatches(page, path))),
  );
  return at < 0 ? funnel.steps.length : at;
}

/**
 * How many of its steps one after another a visit reached: step k counts when steps 1 to k were reached, each first
 * reached no earlier than the step before (a step's first time is its pages' and events' earliest). A visit whose
 * visitor-days were kept before first times were is counted by set: steps 1 to k reached that day, in any order.
 */
export function stepsReached(funnel: Funnel, did: VisitDone): number {
  if (did.firstAt === undefined) return stepsBySet(funnel, did);
  const times = Object.entries(did.firstAt);
  let after = '';
  for (const [at, step] of funnel.steps.entries()) {
    let first: string | undefined;
    for (const [key, time] of times) if ((first === undefined || time < first) && stepReachedBy(step, key)) first = time;
    if (first === undefined || first < after) return at;
    after = first;
  }
  return funnel.steps.length;
}

/** A funnel's step in the rollups' `funnel_steps`: reached by `k` steps one after another. */
export const funnelStepKey = (funnel: string, k: number) => `${funnel}|${k}`;
