import { register } from '../host/registry';
import { nothing } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { peopleCount } from '../shared/read/counting/answers';

register({
  kind: 'http',
  name: 'admin-people',
  route: 'admin/visitors/people',
  methods: ['GET'],
  make: operatorRoute(nothing, (_, site) => peopleCount(site.count)),
});
