import { register } from '../host/registry';
import { mcpRoute } from '../host/http/mcp';
import { keyedStats } from '../host/http/api-key';
import { statsMcpServer } from '../shared/read/stats/mcp';

register({
  kind: 'http',
  name: 'mcp',
  route: 'mcp',
  methods: ['POST', 'GET', 'DELETE'],
  make: (root) => mcpRoute((reader) => statsMcpServer(keyedStats(reader, root.keyed.access.clock, 'site')))(root),
});
