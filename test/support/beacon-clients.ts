import { Worker } from 'node:worker_threads';

/** One request the clients send: a path under the host, its headers and body. */
export interface ClientRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What each request was answered: its status and the milliseconds from its send to its answer. */
export interface ClientAnswer {
  status: number;
  ms: number;
}

// Plain JavaScript for the worker: each request on a connection of its own, all sent at once.
const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, requests } = workerData;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const one = (request) => new Promise((resolve) => {
  const started = performance.now();
  const req = http.request({ host: target.hostname, port: target.port, path: request.path, method: 'POST', agent, headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) } }, (res) => {
    res.resume();
    res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
  });
  req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  req.end(request.body);
});
Promise.all(requests.map(one)).then((answers) => parentPort.postMessage(answers));
`;

/**
 * Sends every request at once from a thread of its own, as many browsers elsewhere would: the clients' work does not
 * take the host's event loop. Answers in the requests' order.
 */
export function sendAtOnce(url: string, requests: readonly ClientRequest[]): Promise<ClientAnswer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENTS, { eval: true, workerData: { url, requests } });
    worker.once('message', (answers: ClientAnswer[]) => {
      resolve(answers);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** A beacon from browser `n` on a home network (Comcast's 73.0.0.0/8): its own address (the client's entry of x-forwarded-for, one trusted hop) and one of three agents. */
export function beaconRequest(n: number, body: Record<string, unknown> = { path: `/articles/${n % 7}` }): ClientRequest {
  const agents = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ];
  return {
    path: '/api/beacon',
    headers: {
      origin: 'https://site.example',
      'content-type': 'text/plain',
      // What the browser sends beside its agent: a language, and on Chromium its client hints.
      'accept-language': 'en-GB,en;q=0.9',
      ...(n % agents.length === 0 ? { 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"' } : {}),
      'user-agent': agents[n % agents.length]!,
      'x-forwarded-for': `73.${15 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${n % 250}`,
    },
    body: JSON.stringify(body),
  };
}
