import { register } from '../host/registry';
import { lastValues } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { nowCard, nowQuerySchema } from '../shared/read/now';

register({
  kind: 'http',
  name: 'admin-now',
  route: 'admin/now',
  methods: ['GET'],
  make: operatorRoute(lastValues(nowQuerySchema), (_, site) => nowCard(site.now)),
});
