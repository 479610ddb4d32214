/**
 * PostgreSQL's COPY text (what a PostgreSQL source, the warehouse, or this connector's own bulk
 * export streams) turned into the text LOAD DATA reads, without decoding a value into an object.
 * Both formats are tab-separated lines with `\N` for NULL and backslash escapes, so most fields pass
 * as they are; what differs is rewritten per column type:
 * - boolean `t`/`f` -> `1`/`0`;
 * - timestamptz `2024-01-01 10:00:00.5+00` (or `...T...Z`) -> the UTC datetime `2024-01-01 10:00:00.5`;
 * - timestamp `T` -> a space;
 * - binary `\\x0001ff` -> `0001ff`, turned back into bytes by the statement's `unhex()`;
 * - the escapes only PostgreSQL has (`\f`, `\v`) -> the characters themselves.
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';
import { ConnectorError, type CanonicalType } from '../../types.js';

type Rewrite = ((field: string) => string) | undefined;

const ZONED = /^(-?\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d(?::?\d\d(?::?\d\d)?)?)?$/;

/** A zoned timestamp's text as the UTC datetime MySQL stores, keeping every fraction digit. */
function utcOf(field: string): string {
  const m = ZONED.exec(field);
  if (!m) throw new ConnectorError('schema_mismatch', `"${field}" is not a timestamp MySQL can store`, false);
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = m;
  const sign = zone.startsWith('-') ? -1 : 1;
  const parts =
    zone === 'Z'
      ? []
      : zone
          .slice(1)
          .split(/:|(?<=^\d\d)(?=\d)/)
          .map(Number);
  const offsetSeconds = sign * ((parts[0] ?? 0) * 3600 + (parts[1] ?? 0) * 60 + (parts[2] ?? 0));
  if (offsetSeconds === 0) return `${year}-${month}-${day} ${hour}:${minute}:${second}${fraction}`;
  const at = new Date(0);
  at.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  at.setUTCHours(Number(hour), Number(minute), Number(second) - offsetSeconds, 0);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}${fraction}`;
}

/** PostgreSQL's `\f` and `\v` (MySQL would read them as `f` and `v`); every other escape means the same in both. */
const onlyPostgresEscapes = (field: string) =>
  field.includes('\\')
    ? field.replace(/\\(.)/gs, (escape: string, c: string) => (c === 'f' ? '\f' : c === 'v' ? '\v' : escape))
    : field;

function rewriteOf(type: CanonicalType): Rewrite {
  switch (type) {
    case 'boolean':
      return (field) => (field === 't' ? '1' : field === 'f' ? '0' : field);
    case 'timestamptz':
      return utcOf;
    case 'timestamp':
      return (field) => field.replace('T', ' ');
    case 'binary':
      // `\\x` and the hex digits: the escaped backslash, then PostgreSQL's hex form of bytea.
      return (field) => (field.startsWith('\\\\x') ? field.slice(3) : field);
    case 'int16':
    case 'int32':
    case 'int64':
    case 'float32':
    case 'float64':
    case 'decimal':
    case 'date':
    case 'uuid':
      return undefined;
    default:
      return onlyPostgresEscapes;
  }
}

/** A Transform from COPY text (lines of `types.length` fields) to LOAD DATA text; `rows()` counts the lines. */
export function copyTextToLoadData(types: readonly CanonicalType[]): Transform & { rows(): number } {
  const rewrites = types.map(rewriteOf);
  const plain = rewrites.every((r) => r === undefined);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let rows = 0;
  const convert = (text: string): string => {
    const lines = text.split('\n');
    rows += lines.length;
    if (plain) return text;
    for (let l = 0; l < lines.length; l++) {
      const fields = lines[l]!.split('\t');
      for (let i = 0; i < fields.length; i++) {
        const rewrite = rewrites[i];
        const field = fields[i]!;
        if (rewrite && field !== '\\N') fields[i] = rewrite(field);
      }
      lines[l] = fields.join('\t');
    }
    return lines.join('\n');
  };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = rest + decoder.write(chunk);
        const end = text.lastIndexOf('\n');
        if (end < 0) {
          rest = text;
          return done();
        }
        rest = text.slice(end + 1);
        done(null, Buffer.from(`${convert(text.slice(0, end))}\n`, 'utf8'));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        const text = rest + decoder.end();
        done(null, text === '' ? undefined : Buffer.from(`${convert(text.replace(/\n$/, ''))}\n`, 'utf8'));
      } catch (error) {
        done(error as Error);
      }
    },
  });
  return Object.assign(transform, { rows: () => rows });
}
