/** Values to PostgreSQL's COPY text format (one line per row, tab-separated, \N for null). */
import { jsonTextOf, type CanonicalType, type Value } from '../../types.js';

function escape(text: string): string {
  // Backslash first, then the characters that COPY text gives meaning to.
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function copyValue(value: Value, type: CanonicalType): string {
  if (value === null || value === undefined) return '\\N';
  switch (type) {
    case 'boolean':
      return value ? 't' : 'f';
    case 'binary':
      return `\\\\x${(Buffer.isBuffer(value) ? value : Buffer.from(String(value))).toString('hex')}`;
    case 'json':
      return escape(jsonTextOf(value));
    case 'float32':
    case 'float64':
      // String(-0) is "0": keep the sign, which PostgreSQL stores.
      return Object.is(value, -0) ? '-0' : String(value);
    default:
      return escape(typeof value === 'string' ? value : String(value));
  }
}

export function copyLines(rows: Value[][], types: CanonicalType[]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < types.length; i++) {
      if (i > 0) out += '\t';
      out += copyValue(row[i] ?? null, types[i]!);
    }
    out += '\n';
  }
  return out;
}
