/**
 * The imports queue: `<HITS_QUEUE>-imports`, so each hits queue has an imports queue of its own and no setting more is
 * needed (its poison queue is `<HITS_QUEUE>-imports-poison`). keep-imports binds it as `%HITS_QUEUE%-imports`.
 */
export const importQueueName = (hitsQueue: string) => `${hitsQueue}-imports`;

/** The binding expression keep-imports' trigger names its queue with, as the Functions host resolves it. */
export const IMPORT_QUEUE_BINDING = '%HITS_QUEUE%-imports';
