import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerSubjects } from '../shared/subjects/read';

register({
  kind: 'http',
  name: 'admin-subjects',
  route: 'admin/subjects',
  methods: ['GET'],
  make: (root) => async (request) => response(await answerSubjects(incoming(request), root.subjects)),
});
