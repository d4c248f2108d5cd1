import { register } from '../host/registry';
import { emailLinkRoute } from '../host/http/email-link';

register({ kind: 'http', name: 'email-unsubscribe', route: 'email/unsubscribe', methods: ['GET'], make: emailLinkRoute('unsubscribe') });
