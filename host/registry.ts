import { app, type HttpHandler, type HttpMethod, type StorageQueueHandler, type TimerHandler } from '@azure/functions';
import { hostRoot, type Root } from './composition';

type Make<H> = (root: Root) => H;

/** An HTTP function: its route under /api (as `pulse`, `admin/activity`) and its methods. */
export interface HttpRegistration {
  kind: 'http';
  name: string;
  route: string;
  methods: HttpMethod[];
  make: Make<HttpHandler>;
}

/** A queue-triggered function: the queue it reads and the connection setting's name. */
export interface QueueRegistration {
  kind: 'queue';
  name: string;
  queueName: string;
  connection: string;
  make: Make<StorageQueueHandler>;
}

/** A timer-triggered function on an NCRONTAB schedule (six fields, seconds first). */
export interface TimerRegistration {
  kind: 'timer';
  name: string;
  schedule: string;
  make: Make<TimerHandler>;
}

export type Registration = HttpRegistration | QueueRegistration | TimerRegistration;

const registrations: Registration[] = [];

/**
 * The route the Functions host is given: `api/` + the function's route, with host.json's routePrefix set to "".
 * The host refuses any route template that starts with `admin` (its own admin API), prefix or not, so
 * `/api/admin/...` can only be served as the template `api/admin/...` under an empty prefix.
 */
export const hostRoute = (registration: HttpRegistration): string => `api/${registration.route}`;

/**
 * Whether this process is a Functions host's Node worker (Azure, Flex Consumption included, or Core Tools' `func start`):
 * the worker provides the `@azure/functions-core` module, which is how `@azure/functions` itself tells. An app setting
 * such as FUNCTIONS_WORKER_RUNTIME is not used, since Flex Consumption keeps the runtime out of the app settings.
 */
function inFunctionsHost(): boolean {
  try {
    // The worker's own module is only there in a Functions host; requiring it is the test, as @azure/functions does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@azure/functions-core');
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers a function once, for both hosts: the Functions host gets it through `app`, with handlers made from the
 * root built from the environment; the local host reads the same list through `registered()` and makes the
 * handlers from a root of its own. One list, so names, routes, methods, queues and schedules cannot drift apart.
 */
export function register(registration: Registration): void {
  registrations.push(registration);
  if (!inFunctionsHost()) return;
  const root = hostRoot();
  switch (registration.kind) {
    case 'http':
      app.http(registration.name, {
        route: hostRoute(registration),
        methods: registration.methods,
        authLevel: 'anonymous',
        handler: registration.make(root),
      });
      break;
    case 'queue':
      app.storageQueue(registration.name, {
        queueName: registration.queueName,
        connection: registration.connection,
        handler: registration.make(root),
      });
      break;
    case 'timer':
      app.timer(registration.name, { schedule: registration.schedule, handler: registration.make(root) });
      break;
  }
}

/** Every function registered so far, in registration order. */
export function registered(): readonly Registration[] {
  return registrations;
}
