/** Derived from HITS_QUEUE, so no setting more is needed. */
export const importQueueName = (hitsQueue: string) => `${hitsQueue}-imports`;

export const IMPORT_QUEUE_BINDING = '%HITS_QUEUE%-imports';
