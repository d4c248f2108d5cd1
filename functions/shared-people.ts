import { register } from '../host/registry';
import { incoming, response } from '../host/http/request';
import { sharedPeople } from '../shared/read/links/open';

register({
  kind: 'http',
  name: 'shared-people',
  route: 'shared/people',
  methods: ['GET'],
  make: (root) => async (request) => response(await sharedPeople(incoming(request), root.shared)),
});
