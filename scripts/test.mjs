// `npm test`: the test tools, then the whole vitest suite (whose global setup makes the hosting networks' table when it
// is missing or stale) on this machine's Node, with the type-check and the lint beside it. HEADCOUNT_TEST_NODES names
// other runs: `all` runs it on each Node major the app supports (package.json engines: 20 and 22), first on this
// machine's Node, as CI does (.ci/run); `22` or `20,22` on those. A supported major other than this machine's comes
// from the npm registry's `node` package (the Node binaries npm publishes), through npx and npx's cache, so nothing but
// npm is downloaded. Arguments go to every vitest run: with more than one, a JSON report (`--outputFile.json=<file>`)
// holds every run's counts, each run's own report beside it as <file>.node<major>.json; a failed type-check or lint
// marks the report failed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The Node of each supported major that the suite runs on when this machine's Node is another: pinned, so a run is repeatable. */
const SUPPORTED = { 20: 'node@20.20.2', 22: 'node@22.23.3' };
const args = process.argv.slice(2);
const here = Number(process.versions.node.split('.')[0]);

function step(command, commandArgs, env = process.env) {
  const run = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

/** A check run beside the suite: its output is kept, and shown once the suite has run. */
function check(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status: status ?? 1, output })));
}

step(process.execPath, [join(root, 'scripts', 'ensure-test-tools.mjs')]);
// The type-check and the lint run beside the suite's first run, which waits on its services more than it computes: on a
// fresh clone they overlap it rather than come before it. They share one process and one TypeScript program
// (scripts/check.mjs). One that fails fails the command once the suite has run (a suite stopped midway would leave its
// services running).
const checks = check(process.execPath, [join(root, 'scripts', 'check.mjs')]);

/** The path of a supported major's Node binary, from npx's cache (installed there from the registry on first use). */
function nodeOf(spec) {
  const out = execFileSync('npx', ['--yes', '--package', spec, '--', 'node', '-e', 'process.stdout.write(process.execPath)'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim();
}

const report = args.map((arg) => /^--outputFile\.json=(.+)$/.exec(arg)?.[1]).find(Boolean);
// Which Node majors to run on: `this` machine's (the default), every supported one (`all`), or a list (`22`, `20,22`).
const asked = process.env.HEADCOUNT_TEST_NODES || 'this';
const majors =
  asked === 'all'
    ? [
        here,
        ...Object.keys(SUPPORTED)
          .map(Number)
          .filter((major) => major !== here),
      ]
    : asked === 'this'
      ? [here]
      : asked.split(',').map(Number);
/** A vitest JSON report, or null when the run wrote none. */
function readReport(file) {
  return file && existsSync(resolve(root, file)) ? JSON.parse(readFileSync(resolve(root, file), 'utf8')) : null;
}

/** A failure's first line, without the terminal's colours. */
function firstLine(text) {
  return stripVTControlCharacters(String(text ?? ''))
    .split('\n')[0]
    .slice(0, 300);
}

const runs = majors.map((major) => {
  if (major === here) return { major, node: process.execPath };
  const spec = SUPPORTED[major];
  if (!spec) {
    console.error(`HEADCOUNT_TEST_NODES: Node ${major} is not one the app supports (${Object.keys(SUPPORTED).join(', ')})`);
    process.exit(1);
  }
  console.log(`\nfetching ${spec} from the npm registry (npx's cache keeps it) for the run on Node ${major}…`);
  return { major, node: nodeOf(spec) };
});

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const results = [];
for (const { major, node } of runs) {
  const own = report && runs.length > 1 ? report.replace(/(\.json)?$/, `.node${major}.json`) : report;
  const runArgs = args.map((arg) => (report && arg === `--outputFile.json=${report}` ? `--outputFile.json=${own}` : arg));
  console.log(`\n— the suite on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} —`);
  // That Node first on PATH, so what the tests start by name (npm start, tsx) runs on it too.
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
  const suite = spawn(node, [vitest, 'run', ...runArgs], { cwd: root, stdio: 'inherit', env });
  const status = await new Promise((resolve) => suite.once('close', (code) => resolve(code ?? 1)));
  results.push({ major, status, file: own });
}

console.log('\n— the type-check (tsc) and the lint (ESLint, Prettier) —');
const checked = await checks;
if (checked.output.trim() !== '') console.log(checked.output.trimEnd());
const checksFailed = checked.status !== 0;

const read = results.map(({ file }) => readReport(file));
if (report && runs.length > 1) {
  // One report for CI's closing line: both runs' counts added, failed if either failed.
  const sum = (field) => read.reduce((total, one) => total + (one?.[field] ?? 0), 0);
  const merged = {
    numTotalTests: sum('numTotalTests'),
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    numTotalTestSuites: sum('numTotalTestSuites'),
    success: read.every((one) => one?.success === true),
    runs: results.map(({ major }, i) => ({
      node: major,
      passed: read[i]?.numPassedTests ?? 0,
      failed: read[i]?.numFailedTests ?? 0,
      success: read[i]?.success === true,
    })),
    testResults: read.flatMap((one) => one?.testResults ?? []),
  };
  writeFileSync(resolve(root, report), JSON.stringify(merged));
}
// The failures again, last, so a log that keeps only its tail (CI's) still names them.
for (const [i, { major }] of results.entries()) {
  for (const suite of read[i]?.testResults ?? []) {
    const where = suite.name.replace(`${root}/`, '');
    if (suite.status === 'failed' && suite.assertionResults.length === 0)
      console.log(`failed on Node ${major}: ${where}: ${firstLine(suite.message)}`);
    for (const test of suite.assertionResults.filter(({ status }) => status === 'failed'))
      console.log(`failed on Node ${major}: ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  }
}
if (checksFailed) {
  console.log('the type-check or the lint: failed (above)');
  // CI's closing line reads the report: it counts a failure there even when every test passed.
  const written = readReport(report);
  if (written) writeFileSync(resolve(root, report), JSON.stringify({ ...written, success: false, checks: 'failed' }));
}
for (const { major, status } of results) console.log(`Node ${major}: ${status === 0 ? 'passed' : 'failed'}`);
process.exit(checksFailed || results.some(({ status }) => status !== 0) ? 1 : 0);
