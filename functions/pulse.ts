import { register } from '../host/registry';
import { incoming, response } from '../host/http';
import { answerPulse } from '../shared/counting/answers';

register({
  kind: 'http',
  name: 'pulse',
  route: 'pulse',
  methods: ['GET', 'OPTIONS'],
  make: (root) => async (request) => response(await answerPulse(incoming(request), root.count)),
});
