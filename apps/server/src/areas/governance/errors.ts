/** The governance area's errors. */

export const DATASET = 'Dataset';
