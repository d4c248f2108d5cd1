/** A check that the package `name`, as `resolve` finds it, is the version the local stack's patch was written for. */
type Check = (name: string, patch: string, resolve: (request: string) => string, expected?: Readonly<Record<string, string>>) => void;

// The check is plain JavaScript so that Azurite's process (azurite-process.cjs, no TypeScript loader) runs the same one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const standIns = require('./stand-ins.cjs') as {
  WRITTEN_FOR: Readonly<Record<string, string>>;
  checkStandIn: Check;
  installOnce: InstallOnce;
};

/** Installs a patch once a process, after checking the packages it patches (name and the resolve their code uses). */
type InstallOnce = (patch: string, packages: ReadonlyArray<readonly [string, (request: string) => string]>, install: () => void) => void;

/** The versions of the stand-ins' packages the patches in host/local/ were written against (stand-ins.json). */
export const WRITTEN_FOR = standIns.WRITTEN_FOR;

/** Throws a message naming the patch, the package and both versions unless the installed one is the one written for. */
export const checkStandIn: Check = standIns.checkStandIn;

export const installOnce: InstallOnce = standIns.installOnce;
