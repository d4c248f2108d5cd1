// node scripts/cold-start.mjs [package folder]: the cold start of the built package (npm run build first), the time
// from spawning a new Node process to its first answer: it loads the package's composition root and the ingest
// handler, builds the root from settings as the Functions host would, and answers one POST /api/hits (the queue is a
// stand-in that takes the message, so only the app's own start is measured). Prints the median of seven starts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const stage = process.argv[2] ?? join(import.meta.dirname, '..', 'dist', 'package');

const child = `
const { rootFromEnvironment } = require('./dist/host/composition.js');
const { answerServerHits } = require('./dist/host/http/ingest.js');
const root = rootFromEnvironment({
  AzureWebJobsStorage: 'UseDevelopmentStorage=true', HASH_KEY: 'cold-start-hash-key-0123456789',
  INGEST_KEY: 'cold-start-ingest-key', OPERATOR_KEY: 'cold-start-operator-key',
}, { hitQueue: { sendAll: async () => ({ ok: true }) }, logger: { info() {}, warn() {}, error() {} } });
const headers = { 'content-type': 'application/json', 'x-ingest-key': 'cold-start-ingest-key' };
const text = JSON.stringify({ address: '3.5.140.2', user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', path: '/' });
answerServerHits({ method: 'POST', header: (n) => headers[n] ?? null, query: new URLSearchParams(), params: {}, text: async () => text }, root.receive)
  .then((answer) => { process.stdout.write(answer.status + ' ' + JSON.stringify(answer.body) + '\\n'); });
`;

function once() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { FUNCTIONS_WORKER_RUNTIME: _, ...env } = process.env;
    const proc = spawn(process.execPath, ['-e', child], { cwd: stage, env });
    let out = '';
    let took = null;
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      if (took === null && out.includes('\n')) took = performance.now() - started;
    });
    proc.stderr.on('data', (chunk) => process.stderr.write(chunk));
    proc.on('exit', (code) =>
      code === 0 && took !== null ? resolve({ took, out: out.trim() }) : reject(new Error(`exit ${code}: ${out}`)),
    );
  });
}

const runs = [];
for (let i = 0; i < 7; i += 1) runs.push(await once());
const times = runs.map((run) => run.took).sort((a, b) => a - b);
console.log(
  `cold start of ${stage}: median ${times[3].toFixed(0)} ms to the first answer (min ${times[0].toFixed(0)}, max ${times[6].toFixed(0)}); it answered ${runs[0].out}`,
);
