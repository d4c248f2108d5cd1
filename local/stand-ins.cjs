'use strict';
// Plain JavaScript, so azurite-process.cjs, which runs without a TypeScript loader, checks with the same code.

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** package.json pins these versions. */
const WRITTEN_FOR = JSON.parse(readFileSync(join(__dirname, 'stand-ins.json'), 'utf8'));

/**
 * A patch of another version's internals could change answers without failing, so throws naming the patch, package and versions.
 * @param {string} name the package
 * @param {string} patch the file that patches it
 * @param {(request: string) => string} resolve resolves as the code being patched does (its own createRequire)
 * @param {Record<string, string>} [expected] the versions written for (tests name others)
 */
function checkStandIn(name, patch, resolve, expected = WRITTEN_FOR) {
  const wanted = expected[name];
  const found = JSON.parse(readFileSync(resolve(`${name}/package.json`), 'utf8')).version;
  if (found === wanted) return;
  throw new Error(
    `local/${patch} patches ${name} ${wanted ?? '(no version listed)'}, and ${name} ${found} is installed: install ${name}@${wanted} ` +
      `(package.json pins it), or check the patch against ${found}, run its differential test, and set ${found} in local/stand-ins.json`,
  );
}

/** Each patch is installed once, whoever asks for it. */
const installed = new Set();

/**
 * Installs a patch once a process, after checking each package it patches.
 * @param {string} patch the file that patches
 * @param {Array<[name: string, resolve: (request: string) => string]>} packages the packages it patches, each with its resolve
 * @param {() => void} install makes the patch
 */
function installOnce(patch, packages, install) {
  if (installed.has(patch)) return;
  for (const [name, resolve] of packages) checkStandIn(name, patch, resolve);
  installed.add(patch);
  install();
}

module.exports = { WRITTEN_FOR, checkStandIn, installOnce };
