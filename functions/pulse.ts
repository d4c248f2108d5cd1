import { register } from '../host/registry';
import { publicRoute, pulseCors } from '../host/http/route';
import { pulse } from '../shared/read/counting/answers';

register({
  kind: 'http',
  name: 'pulse',
  route: 'pulse',
  methods: ['GET', 'OPTIONS'],
  make: publicRoute(
    (site) => pulse(site.count),
    (site) => pulseCors(site.count.allowedOrigins),
  ),
});
