/** Copies the production packages of the lock at `root` into `stage`, writes `stage`'s lock, and answers the paths copied. */
export function stageProduction(
  root: string,
  stage: string,
  manifest: { name: string; version: string; dependencies: Record<string, string>; engines?: Record<string, string> },
): string[];
