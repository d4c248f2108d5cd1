import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerSubject } from '../shared/subjects/read';

register({
  kind: 'http',
  name: 'admin-subject',
  route: 'admin/subjects/{id}',
  methods: ['GET'],
  make: (root) => async (request) => response(await answerSubject(incoming(request), root.subjects)),
});
