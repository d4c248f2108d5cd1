import { register } from '../host/registry';
import { nothing } from '../host/http/input';
import { sharedRoute } from '../host/http/shared-link';
import { sharedPeople } from '../shared/read/links/shared';

register({
  kind: 'http',
  name: 'shared-people',
  route: 'shared/people',
  methods: ['GET'],
  make: sharedRoute(nothing, (_, link, site) => sharedPeople(link, site)),
});
