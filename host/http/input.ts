import type { z } from 'zod';
import { readJsonBody } from './body';
import type { IncomingRequest } from './request';
import { fail, ok, parseWith, type Result } from '../../shared/core/result';

export type Input<T> = (request: IncomingRequest) => Result<T> | Promise<Result<T>>;

const REPEATED = new Set(['filter']);

export const query =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) => {
    const names = new Set(request.query.keys());
    return parseWith(
      schema,
      Object.fromEntries([...names].map((name) => [name, REPEATED.has(name) ? request.query.getAll(name) : request.query.get(name)])),
    );
  };

export const lastValues =
  <S extends z.ZodType>(schema: S): Input<z.infer<S>> =>
  (request) =>
    parseWith(schema, Object.fromEntries(request.query.entries()));

export const withParam =
  <S extends z.ZodType, T>(name: string, schema: S, rest: Input<T>): Input<{ param: z.infer<S>; rest: T }> =>
  async (request) => {
    const param = parseWith(schema, request.params[name] ?? '', name);
    if (!param.ok) return fail(param.failure);
    const read = await rest(request);
    return read.ok ? ok({ param: param.value, rest: read.value }) : fail(read.failure);
  };

export const bodyWith =
  <T>(reader: (value: unknown) => Result<T>, maxBytes: number, mediaTypes: readonly string[]): Input<T> =>
  async (request) => {
    const read = await readJsonBody(request, maxBytes, mediaTypes);
    return read.ok ? reader(read.value) : fail(read.failure);
  };

export const body = <S extends z.ZodType>(schema: S, maxBytes: number, mediaTypes: readonly string[]): Input<z.infer<S>> =>
  bodyWith((value) => parseWith(schema, value), maxBytes, mediaTypes);

/** For a use case that answers a bad one as not found. */
export const param =
  (name: string): Input<string> =>
  (request) =>
    ok(request.params[name] ?? '');

export const nothing: Input<null> = () => ok(null);

/** A header's value beside the rest of the input, null when absent. */
export const withHeader =
  <T>(name: string, rest: Input<T>): Input<{ header: string | null; rest: T }> =>
  async (request) => {
    const read = await rest(request);
    return read.ok ? ok({ header: request.header(name), rest: read.value }) : fail(read.failure);
  };
