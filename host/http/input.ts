import type { z } from 'zod';
import { readJsonBody } from './body';
import type { IncomingRequest } from './request';
import { fail, ok, parseWith, type Result } from '../../shared/core/result';

/** What a route reads of a request as its use case's typed input, or the 400 naming the bad field. */
export type Input<T> = (request: IncomingRequest) => Result<T> | Promise<Result<T>>;

/** The parameters a query may repeat: each is read as a list. */
const REPEATED = new Set(['filter']);

/** The query read with a schema, `filter` as a list and any other parameter as its first value. */
export const query =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) => {
    const names = new Set(request.query.keys());
    return parseWith(
      schema,
      Object.fromEntries([...names].map((name) => [name, REPEATED.has(name) ? request.query.getAll(name) : request.query.get(name)])),
    );
  };

/** The query read with a schema, a repeated parameter as its last value. */
export const lastValues =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) =>
    parseWith(schema, Object.fromEntries(request.query.entries()));

/** A path parameter read with its schema (a bad one named by its name), then the rest of the input. */
export const withParam =
  <S extends z.ZodType, T>(name: string, schema: S, rest: Input<T>): Input<{ param: z.infer<S>; rest: T }> =>
  async (request) => {
    const param = parseWith(schema, request.params[name] ?? '', name);
    if (!param.ok) return fail(param.failure);
    const read = await rest(request);
    return read.ok ? ok({ param: param.value, rest: read.value }) : fail(read.failure);
  };

/** The body read as JSON within a size bound and media types, then by a reader. */
export const bodyWith =
  <T>(reader: (value: unknown) => Result<T>, maxBytes: number, mediaTypes: readonly string[]): Input<T> =>
  async (request) => {
    const read = await readJsonBody(request, maxBytes, mediaTypes);
    return read.ok ? reader(read.value) : fail(read.failure);
  };

/** The body read as JSON within a size bound and media types, then with a schema. */
export const body = <S extends z.ZodType>(schema: S, maxBytes: number, mediaTypes: readonly string[]): Input<z.infer<S>> =>
  bodyWith((value) => parseWith(schema, value), maxBytes, mediaTypes);

/** A path parameter as it is, for a use case that answers a bad one as not found. */
export const param =
  (name: string): Input<string> =>
  (request) =>
    ok(request.params[name] ?? '');

/** A route that reads nothing of the request but its site. */
export const nothing: Input<null> = () => ok(null);
