import { register } from '../host/registry';
import { fileReply } from '../host/http/answer';
import { query } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { exportDays } from '../shared/read/export/export';
import { exportQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-export',
  route: 'admin/export',
  methods: ['GET'],
  make: operatorRoute(query(exportQuerySchema), async (asked, site) => exportDays(asked, (await site.configured()).export), fileReply),
});
