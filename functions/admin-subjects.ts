import { register } from '../host/registry';
import { lastValues } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { subjectsPage } from '../shared/read/subjects';
import { listQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-subjects',
  route: 'admin/subjects',
  methods: ['GET'],
  make: operatorRoute(lastValues(listQuerySchema), (asked, site) => subjectsPage(asked, site.subjects)),
});
