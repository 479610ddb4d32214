/** Small facts about batches that several runners need: their size, and the order of cursor values. */
import { Transform } from 'node:stream';
import { jsonTextOf, type RecordBatch, type Value } from './types.js';

/** Size of a batch's values: exact for text and binary, 8 bytes a number, JSON text for json. */
export function approximateBytes(batch: RecordBatch): number {
  let bytes = 0;
  for (const row of batch.rows) {
    for (const value of row) {
      if (typeof value === 'string') bytes += value.length;
      else if (Buffer.isBuffer(value)) bytes += value.length;
      else if (typeof value === 'number' || typeof value === 'boolean') bytes += 8;
      else if (value !== null && value !== undefined) bytes += jsonTextOf(value).length;
    }
  }
  return bytes;
}

/**
 * Orders cursor values: numbers as numbers, int64 strings exactly (BigInt), everything else as text (ISO times sort as text).
 * Accepts a missing cell (`row[i]` past the end) so that callers can pass what they index.
 */
export function compareCursor(a: Value | undefined, b: Value | undefined): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  if (/^-?\d+$/.test(x) && /^-?\d+$/.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  if (/^-?\d+(\.\d+)?$/.test(x) && /^-?\d+(\.\d+)?$/.test(y)) return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Passes a COPY text stream through unchanged while counting its rows (one line per row: newlines
 * inside values are escaped) and bytes; `onProgress` at most once a second.
 */
export function countingCopyText(
  onProgress: (rows: number, bytes: number) => void,
): Transform & { rows(): number; bytes(): number } {
  let lines = 0;
  let bytes = 0;
  let lastReport = Date.now();
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      bytes += chunk.length;
      if (Date.now() - lastReport > 1000) {
        lastReport = Date.now();
        onProgress(lines, bytes);
      }
      done(null, chunk);
    },
  });
  return Object.assign(counting, { rows: () => lines, bytes: () => bytes });
}
