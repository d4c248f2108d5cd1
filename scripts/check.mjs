// The test command's type-check and lint in one process: tsc's diagnostics for tsconfig.test.json, then ESLint (the
// same eslint.config.mjs as `npm run lint`) given that same TypeScript program, so its type-aware rules read types the
// type-check has already worked out instead of building and checking the program again; then Prettier.
// Exits non-zero when any of the three fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');

/** The program of tsconfig.test.json, as `tsc -p tsconfig.test.json` builds it. */
function testProgram() {
  const file = join(root, 'tsconfig.test.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error(`${file} could not be read`);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, configFileParsingDiagnostics: parsed.errors });
}

const program = testProgram();
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.log(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
}

// Every TypeScript file is in the program (eslint.config.mjs names the same tsconfig, and a file outside it fails the
// lint); the JavaScript files are linted without types, as the config says.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    languageOptions: { parserOptions: { project: false, programs: [program] } },
  },
});
const results = await eslint.lintFiles(['.']);
const lintText = await (await eslint.loadFormatter('stylish')).format(results);
if (lintText) console.log(lintText);
const lintFailed = results.some((result) => result.errorCount > 0 || result.fatalErrorCount > 0);

// Prettier keeps what it found formatted by each file's content (node_modules/.cache/prettier), so a file unchanged
// since the last run is not formatted again. ESLint keeps no cache: a type-aware rule's finding in one file can change
// with another.
const prettierCli = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
const prettier = spawnSync(process.execPath, [prettierCli, '--check', '--cache', '--cache-strategy', 'content', '.'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(diagnostics.length > 0 || lintFailed || prettier.status !== 0 ? 1 : 0);
