import { register } from '../host/registry';
import { fileReply, operatorRoute, query } from '../host/http/route';
import { exportDays, exportQuerySchema } from '../shared/read/export/export';

register({
  kind: 'http',
  name: 'admin-export',
  route: 'admin/export',
  methods: ['GET'],
  make: operatorRoute(query(exportQuerySchema), (asked, site) => exportDays(asked, site.export), fileReply),
});
