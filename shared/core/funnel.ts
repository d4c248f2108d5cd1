import { z } from 'zod';

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
