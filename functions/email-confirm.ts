import { register } from '../host/registry';
import { emailLinkRoute } from '../host/http/email-link';

register({ kind: 'http', name: 'email-confirm', route: 'email/confirm', methods: ['GET'], make: emailLinkRoute('confirm') });
