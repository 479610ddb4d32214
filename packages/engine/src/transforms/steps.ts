/** The declarative transform steps of a pipeline, as users write them (JSON), and their errors. */
import type { CanonicalType } from '../types.js';

export type MaskMethod = 'hash' | 'redact' | 'null' | 'partial';
export const MASK_METHODS: readonly MaskMethod[] = ['hash', 'redact', 'null', 'partial'];

export type TransformStep =
  | { type: 'select'; columns: string[] }
  | { type: 'drop'; columns: string[] }
  | { type: 'rename'; columns: Record<string, string> }
  | { type: 'cast'; columns: Record<string, CanonicalType> }
  | { type: 'filter'; expression: string }
  | { type: 'derive'; column: string; expression: string }
  | { type: 'deduplicate'; keys: string[]; order_by?: string; keep?: 'first' | 'last' }
  | { type: 'flatten'; column: string; paths?: string[]; separator?: string; keep_original?: boolean }
  | { type: 'mask'; columns: Record<string, MaskMethod> };

export const TRANSFORM_TYPES: readonly TransformStep['type'][] = [
  'select',
  'drop',
  'rename',
  'cast',
  'filter',
  'derive',
  'deduplicate',
  'flatten',
  'mask',
];

/** A mistake in the steps; `path` is relative to the steps array: '2.expression', '0.columns.3'. */
export interface TransformProblem {
  path: string;
  message: string;
}

/** A step that cannot be planned or a row it cannot transform: the user's to fix, so never retried. */
export class TransformError extends Error {
  readonly retryable = false;
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransformError';
  }
}

/** A failure while evaluating one row; the runner turns it into a TransformError with the step's path. */
export class EvaluationFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvaluationFailure';
  }
}

export function fail(message: string): never {
  throw new EvaluationFailure(message);
}

/** PostgreSQL truncates longer identifiers silently, which would rename an output column. */
export const MAX_IDENTIFIER_BYTES = 63;
