import { register } from '../host/registry';
import { nothing } from '../host/http/input';
import { adminRoute } from '../host/http/route';
import { operatorMark } from '../host/http/mark';

register({
  kind: 'http',
  name: 'admin-mark',
  route: 'admin/mark',
  methods: ['GET'],
  make: adminRoute(nothing, (_, root) => operatorMark(root.mark)),
});
