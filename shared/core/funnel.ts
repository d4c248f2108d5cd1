import { z } from 'zod';

/** One step of the path a reader takes: a name and the paths that count as reaching it. */
export interface FunnelStep {
  name: string;
  paths: string[];
}

/** The steps when FUNNEL_STEPS is not set: the landing page, the page about the author, and the resume at both its addresses. */
export const DEFAULT_FUNNEL_STEPS = 'landing=/|about=/about,/about/|resume=/resume,/resume/,/resume.pdf';

const stepName = /^[a-z][a-z0-9-]{0,31}$/;
const stepPath = /^(?:\/[^\s?#,|=]*|event:[a-z][a-z0-9_-]{0,39})$/;

/** The reading of one `name=/a,/b` step, or why it cannot be read. */
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
 * FUNNEL_STEPS: steps separated by `|`, each `name=/path,/path` (`landing=/|about=/about,/about/|resume=/resume.pdf`),
 * in the order a reader takes them; a step may name an event instead of a path (`signup=event:signup`); from one to
 * twelve steps, names unique.
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

/** The key a step is counted under: its paths, so renaming a step keeps its days. */
export const stepKey = (step: Pick<FunnelStep, 'paths'>) => step.paths.join(',');
