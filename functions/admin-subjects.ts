import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerSubjects, subjectReadDeps } from '../shared/subjects/read';

register({
  kind: 'http',
  name: 'admin-subjects',
  route: 'admin/subjects',
  methods: ['GET'],
  make: (root) => {
    const deps = subjectReadDeps(root);
    return async (request) => response(await answerSubjects(incoming(request), deps));
  },
});
