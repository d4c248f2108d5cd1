import { register } from '../host/registry';
import { lastValues } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { listQuerySchema, subjectsPage } from '../shared/read/subjects';

register({
  kind: 'http',
  name: 'admin-subjects',
  route: 'admin/subjects',
  methods: ['GET'],
  make: operatorRoute(lastValues(listQuerySchema), (asked, site) => subjectsPage(asked, site.subjects)),
});
