/**
 * The part CSV, TSV, JSON and NDJSON share: types inferred from the first rows of each file of a
 * dataset (infer.ts), and raw cells converted to those types while reading. A value past the sample
 * that does not fit its column's type fails the read with schema_mismatch rather than being altered.
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { ConnectorError, type ColumnSchema, type Value } from '../../../types.js';
import { convertCell, MISMATCH, RecordInference, SAMPLE_ROWS, type RawValue } from '../infer.js';
import type { FileStore } from '../store.js';
import { throwIfAborted, type DatasetDescription, type FileFormat } from './format.js';

/** A record of a text file: cells by position under names (CSV), or a JSON object. */
export type RawRecord = { keys: readonly string[]; values: readonly RawValue[] } | { object: Record<string, RawValue> };

export interface RecordSource {
  /** `textual`: cells are text whose type must be recognised (CSV), not typed JSON values. */
  textual: boolean;
  /** Records of one file, in order; `onHeader` receives names known before the first record. */
  records(store: FileStore, file: string, onHeader?: (names: readonly string[]) => void): AsyncIterable<RawRecord>;
  encode(columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Readable;
}

export function textFormat(source: RecordSource): FileFormat {
  return {
    async describe(store: FileStore, files: readonly string[], signal?: AbortSignal): Promise<DatasetDescription> {
      const inference = new RecordInference(source.textual);
      for (const file of files) {
        let sampled = 0;
        for await (const record of source.records(store, file, (names) => inference.declare(names))) {
          throwIfAborted(signal);
          if ('object' in record) inference.observe(Object.keys(record.object), Object.values(record.object));
          else inference.observe(record.keys, record.values);
          if (++sampled >= SAMPLE_ROWS) break;
        }
      }
      return { columns: inference.result(), rowEstimate: null };
    },

    async *rows(
      store: FileStore,
      file: string,
      columns: readonly ColumnSchema[],
      chunkSize: number,
      signal?: AbortSignal,
    ): AsyncIterable<Value[][]> {
      let chunk: Value[][] = [];
      let keys: readonly string[] | undefined;
      let positions: number[] = [];
      let line = 0;
      const fail = (column: ColumnSchema): never => {
        throw new ConnectorError(
          'schema_mismatch',
          `${basename(file)}: record ${line}: a value of column "${column.name}" is not ${column.type} (the type inferred from the first ${SAMPLE_ROWS} rows)`,
          false,
        );
      };
      for await (const record of source.records(store, file)) {
        line += 1;
        const row: Value[] = new Array<Value>(columns.length);
        if ('object' in record) {
          columns.forEach((column, i) => {
            const value = convertCell(record.object[column.name], column.type, source.textual);
            row[i] = value === MISMATCH ? fail(column) : value;
          });
        } else {
          if (record.keys !== keys) {
            keys = record.keys;
            positions = columns.map((c) => record.keys.indexOf(c.name));
          }
          columns.forEach((column, i) => {
            const position = positions[i]!;
            const value = position < 0 ? null : convertCell(record.values[position], column.type, source.textual);
            row[i] = value === MISMATCH ? fail(column) : value;
          });
        }
        chunk.push(row);
        if (chunk.length >= chunkSize) {
          throwIfAborted(signal);
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    },

    encode: (columns, chunks) => source.encode(columns, chunks),
  };
}
