import { errorAnswer, type Answer } from './envelope';
import type { Result } from '../../shared/core/result';
import type { ExportFile } from '../../shared/read/export/export';

/** How a use case's value is answered. */
export type Reply<T> = (value: T) => Answer;

/** 200 with the value as JSON: how most use cases are answered. */
export const json = <T>(value: T): Answer => ({ status: 200, body: value });

/** A use case's result as an answer: the reply to its value, or its failure in the one envelope. */
export const answerOf = <T>(result: Result<T>, reply: Reply<T> = json): Answer =>
  result.ok ? reply(result.value) : errorAnswer(result.failure);

/** 201 with the value as JSON: a thing made. */
export const created = <T>(value: T): Answer => ({ status: 201, body: value });

/** An export's answer: JSON as JSON, CSV as an attachment named for its days. */
export const fileReply = (file: ExportFile): Answer =>
  'json' in file
    ? json(file.json)
    : {
        status: 200,
        body: file.csv,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${file.filename}"` },
      };

/** 202 with the value as JSON: taken, to be kept later. */
export const accepted = <T>(value: T): Answer => ({ status: 202, body: value });
