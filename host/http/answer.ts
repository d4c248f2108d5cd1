import { errorAnswer, type Answer } from './envelope';
import type { Result } from '../../shared/core/result';
import type { ExportFile } from '../../shared/read/export/export';
import type { Input } from './input';
import type { IncomingRequest } from './request';

export type Reply<T> = (value: T) => Answer;

export const json = <T>(value: T): Answer => ({ status: 200, body: value });

export const answerOf = <T>(result: Result<T>, reply: Reply<T> = json): Answer =>
  result.ok ? reply(result.value) : errorAnswer(result.failure);

export const created = <T>(value: T): Answer => ({ status: 201, body: value });

export const fileReply = (file: ExportFile): Answer =>
  'json' in file
    ? json(file.json)
    : {
        status: 200,
        body: file.csv,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file.filename}"` },
      };

export const accepted = <T>(value: T): Answer => ({ status: 202, body: value });

/** The input read (a bad field is a 400 naming it), then the use case, then its answer. */
export async function answerInput<T, V>(
  request: IncomingRequest,
  input: Input<T>,
  run: (input: T) => Promise<Result<V>>,
  reply?: Reply<V>,
): Promise<Answer> {
  const read = await input(request);
  return read.ok ? answerOf(await run(read.value), reply) : errorAnswer(read.failure);
}
