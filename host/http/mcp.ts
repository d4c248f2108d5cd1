import type { HttpHandler, HttpRequest, HttpResponseInit } from '@azure/functions';
import { incoming, response } from './request';
import { errorAnswer } from './envelope';
import { openKey, type KeyReadDeps, type KeyReader } from './api-key';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const NOT_KEPT = errorAnswer(
  { status: 405, code: 'method_not_allowed', message: 'method: no session is kept, so only POST is answered' },
  { allow: 'POST', 'cache-control': 'no-store' },
);

/** MCP over Streamable HTTP, stateless: each request its own server and transport, answered as JSON. */
export function mcpRoute(serverFor: (reader: KeyReader) => Promise<McpServer>) {
  return (root: { keyed: KeyReadDeps }): HttpHandler =>
    async (request: HttpRequest): Promise<HttpResponseInit> => {
      const opened = await openKey(incoming(request), root.keyed);
      if (!opened.ok) return response(opened.answer);
      // Stateless: no stream to hold open for a GET, no session for a DELETE to end.
      if (request.method !== 'POST') return response(NOT_KEPT);
      const server = await serverFor(opened.reader);
      // Loaded on the first MCP request, so an instance that never answers one never holds the SDK.
      const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      const body = await request.text();
      const asked = new Request(request.url, { method: request.method, headers: request.headers, body });
      const answered = await transport.handleRequest(asked);
      const headers = Object.fromEntries(answered.headers.entries());
      const text = await answered.text();
      await server.close();
      return { status: answered.status, headers: { ...headers, 'cache-control': 'no-store' }, ...(text === '' ? {} : { body: text }) };
    };
}
