import { app, type HttpHandler, type HttpMethod, type StorageQueueHandler, type TimerHandler } from '@azure/functions';
import { hostRoot, type Root } from './composition';

type Make<H> = (root: Root) => H;

/** `route` is under /api: `pulse`, `admin/activity`. */
export interface HttpRegistration {
  kind: 'http';
  name: string;
  route: string;
  methods: HttpMethod[];
  make: Make<HttpHandler>;
}

export interface QueueRegistration {
  kind: 'queue';
  name: string;
  queueName: string;
  connection: string;
  make: Make<StorageQueueHandler>;
}

/** NCRONTAB: six fields, seconds first. */
export interface TimerRegistration {
  kind: 'timer';
  name: string;
  schedule: string;
  make: Make<TimerHandler>;
}

export type Registration = HttpRegistration | QueueRegistration | TimerRegistration;

const registrations: Registration[] = [];

/** The host refuses any route template starting `admin`, its own API, so routes carry `api/` under an empty routePrefix. */
export const hostRoute = (registration: HttpRegistration): string => `api/${registration.route}`;

/** Flex Consumption keeps FUNCTIONS_WORKER_RUNTIME out of the app settings, so the worker's own module is the test. */
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

/** One list for both hosts, so names, routes, methods, queues and schedules cannot drift apart. */
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

/** In registration order. */
export function registered(): readonly Registration[] {
  return registrations;
}
