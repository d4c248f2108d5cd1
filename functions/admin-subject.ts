import { register } from '../host/registry';
import { lastValues, withParam } from '../host/http/input';
import { operatorRoute } from '../host/http/route';
import { subjectSchema } from '../shared/contract/hits';
import { oneSubject } from '../shared/read/subjects';
import { detailQuerySchema } from '../shared/contract/queries';

register({
  kind: 'http',
  name: 'admin-subject',
  route: 'admin/subjects/{id}',
  methods: ['GET'],
  make: operatorRoute(withParam('id', subjectSchema, lastValues(detailQuerySchema)), ({ param, rest }, site) =>
    oneSubject(param, rest, site.subjects),
  ),
});
