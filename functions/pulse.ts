import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerPulse } from '../shared/counting/answers';
import { countAnswerDeps } from '../shared/counting/deps';

register({
  kind: 'http',
  name: 'pulse',
  route: 'pulse',
  methods: ['GET', 'OPTIONS'],
  make: (root) => {
    const deps = countAnswerDeps(root);
    return async (request) => response(await answerPulse(incoming(request), deps));
  },
});
