import { register } from '../host/registry';
import { mcpRoute } from '../host/http/mcp';
import { keyedStats } from '../host/http/api-key';

register({
  kind: 'http',
  name: 'mcp',
  route: 'mcp',
  methods: ['POST', 'GET', 'DELETE'],
  // The SDK is loaded on the first MCP request, so an instance that never answers one never holds it.
  make: (root) =>
    mcpRoute(async (reader) =>
      (await import('../shared/read/stats/mcp')).statsMcpServer(keyedStats(reader, root.keyed.access.clock, 'site')),
    )(root),
});
