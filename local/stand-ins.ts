type Check = (name: string, patch: string, resolve: (request: string) => string, expected?: Readonly<Record<string, string>>) => void;

// Plain JavaScript, so Azurite's process runs the same check without a TypeScript loader.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const standIns = require('./stand-ins.cjs') as {
  WRITTEN_FOR: Readonly<Record<string, string>>;
  checkStandIn: Check;
  installOnce: InstallOnce;
};

type InstallOnce = (patch: string, packages: ReadonlyArray<readonly [string, (request: string) => string]>, install: () => void) => void;

/** Read from stand-ins.json. */
export const WRITTEN_FOR = standIns.WRITTEN_FOR;

/** Unless the installed version is the one written for, throws naming the patch, the package and both versions. */
export const checkStandIn: Check = standIns.checkStandIn;

export const installOnce: InstallOnce = standIns.installOnce;
