import { createHmac } from 'node:crypto';
import type { TokenCredential } from '@azure/identity';
import { errorLine } from '../shared/core/errors';

// @azure/storage-blob is not a dependency, so the few blob calls go over the REST API, signed as the SDKs sign them.

const API_VERSION = '2021-12-02';
const STORAGE_SCOPE = 'https://storage.azure.com/.default';
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export type BlobLocation =
  | { endpoint: string; account: string; key: string }
  | { endpoint: string; sas: string }
  | { endpoint: string; credential: TokenCredential };

export interface BlobAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
  /** The body as it came, for a binary blob. */
  bytes?: Buffer;
}

/** `path` is `container/blob` under the endpoint. */
export interface BlobRequest {
  method: 'GET' | 'PUT' | 'DELETE' | 'HEAD';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Throws only when the service cannot be reached: a status is an answer. */
export type BlobCall = (request: BlobRequest) => Promise<BlobAnswer>;

/** Azurite's for UseDevelopmentStorage=true; null when the string names no blob service. */
export function blobLocationFromConnectionString(connection: string): BlobLocation | null {
  const parts = new Map<string, string>();
  for (const part of connection.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  if (parts.get('usedevelopmentstorage') === 'true') {
    return { endpoint: `http://127.0.0.1:10000/${AZURITE_ACCOUNT}`, account: AZURITE_ACCOUNT, key: AZURITE_KEY };
  }
  const account = parts.get('accountname');
  const explicit = parts.get('blobendpoint');
  const endpoint =
    explicit ??
    (account && parts.has('endpointsuffix')
      ? `${parts.get('defaultendpointsprotocol') ?? 'https'}://${account}.blob.${parts.get('endpointsuffix')}`
      : undefined);
  if (!endpoint) return null;
  const sas = parts.get('sharedaccesssignature');
  if (sas) return { endpoint, sas: sas.replace(/^\?/, '') };
  const key = parts.get('accountkey');
  if (!account || !key) return null;
  return { endpoint, account, key };
}

// Shared Key, as the Blob service documents it.
function sharedKey(method: string, url: URL, headers: Record<string, string>, account: string, key: string): string {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const length = lower['content-length'] && lower['content-length'] !== '0' ? lower['content-length'] : '';
  const standard = [
    'content-encoding',
    'content-language',
    'content-length',
    'content-md5',
    'content-type',
    'date',
    'if-modified-since',
    'if-match',
    'if-none-match',
    'if-unmodified-since',
    'range',
  ];
  const values = standard.map((name) => (name === 'content-length' ? length : (lower[name] ?? '')));
  const msHeaders = Object.keys(lower)
    .filter((name) => name.startsWith('x-ms-'))
    .sort()
    .map((name) => `${name}:${lower[name]!.trim()}\n`)
    .join('');
  const params = [...url.searchParams.keys()]
    .map((name) => name.toLowerCase())
    .sort()
    .map((name) => `\n${name}:${url.searchParams.getAll(name).sort().join(',')}`)
    .join('');
  const toSign = `${method}\n${values.join('\n')}\n${msHeaders}/${account}${url.pathname}${params}`;
  return `SharedKey ${account}:${createHmac('sha256', Buffer.from(key, 'base64')).update(toSign, 'utf8').digest('base64')}`;
}

/** Each request is given up after `timeoutMs`. */
export function blobCall(location: BlobLocation, timeoutMs = 10_000): BlobCall {
  return async (request) => {
    const url = new URL(`${location.endpoint.replace(/\/+$/, '')}/${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    if ('sas' in location) for (const [name, value] of new URLSearchParams(location.sas)) url.searchParams.set(name, value);
    const body = request.body ?? '';
    const headers: Record<string, string> = {
      'x-ms-date': new Date().toUTCString(),
      'x-ms-version': API_VERSION,
      'content-length': String(Buffer.byteLength(body)),
      ...(request.method === 'PUT' ? { 'content-type': 'application/octet-stream' } : {}),
      ...request.headers,
    };
    if ('key' in location) headers.authorization = sharedKey(request.method, url, headers, location.account, location.key);
    if ('credential' in location) {
      const token = await location.credential.getToken(STORAGE_SCOPE);
      if (!token) throw new Error('the managed identity gave no token for storage');
      headers.authorization = `Bearer ${token.token}`;
    }
    const { 'content-length': _length, ...sent } = headers;
    const response = await fetch(url, {
      method: request.method,
      headers: sent,
      body: request.method === 'PUT' ? (typeof body === 'string' ? body : new Uint8Array(body)) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, header: (name) => response.headers.get(name), text: bytes.toString('utf8'), bytes };
  };
}

/** The status when the answer gives no error code. */
export function blobError(answer: BlobAnswer): string {
  return answer.header('x-ms-error-code') ?? `status ${answer.status}`;
}

/** A call that fails is a reason. */
export async function ensureBlobContainer(call: BlobCall, container: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const answer = await call({ method: 'PUT', path: container, query: { restype: 'container' } });
    if (answer.status === 201 || answer.status === 409) return { ok: true };
    return { ok: false, reason: `the container ${container} could not be made: ${blobError(answer)}` };
  } catch (error) {
    return { ok: false, reason: errorLine(error) };
  }
}
