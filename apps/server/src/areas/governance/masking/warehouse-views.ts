/**
 * The masking methods written in SQL, for the warehouse's masked views: what a principal without the
 * exemption reads of a project's tables (connectivity/warehouse.ts makes the views for each such read,
 * and a second login role of the project may read them and nothing else). Every expression keeps the
 * column's PostgreSQL type (the cast at the end) and gives the values of ./methods.ts for strings and
 * integers, so a key hashed in the warehouse joins with the same key hashed in an export.
 *
 * `hash` is HMAC-SHA-256 written with `sha256()`: the key's inner and outer pads come from scalar
 * subqueries on a table only the service's login may read (the view's owner reads it, the reader
 * role cannot), so no view definition, which every role may read in the catalog, holds the key.
 */
import type { CanonicalType } from '@svc/engine';
import { MASK_TEXT } from './methods.js';
import { winningPolicy, type AppliedPolicy } from './plan.js';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The canonical type of a `format_type` name; undefined for a type no method has a meaning for. */
export function canonicalOf(pgType: string): CanonicalType | undefined {
  const type = pgType.toLowerCase();
  if (type.endsWith('[]')) return undefined;
  if (type === 'text' || type === 'name' || type === 'citext' || type.startsWith('character')) return 'string';
  if (type === 'smallint') return 'int16';
  if (type === 'integer') return 'int32';
  if (type === 'bigint') return 'int64';
  if (type.startsWith('numeric')) return 'decimal';
  if (type === 'real') return 'float32';
  if (type === 'double precision') return 'float64';
  if (type === 'uuid') return 'uuid';
  if (type === 'date') return 'date';
  if (type.startsWith('timestamp')) return type.includes('with time zone') ? 'timestamptz' : 'timestamp';
  if (type.startsWith('time')) return 'time';
  if (type === 'boolean') return 'boolean';
  if (type === 'json' || type === 'jsonb') return 'json';
  if (type === 'bytea') return 'binary';
  return undefined;
}

/** `full`'s constant of a column's type (null for a type that has none here). */
function constantSql(canonical: CanonicalType | undefined, pgType: string): string {
  switch (canonical) {
    case 'string':
      return `${literal(MASK_TEXT)}::${pgType}`;
    case 'int16':
    case 'int32':
    case 'int64':
    case 'decimal':
    case 'float32':
    case 'float64':
      return `0::${pgType}`;
    case 'uuid':
      return `'00000000-0000-0000-0000-000000000000'::uuid`;
    case 'date':
      return `'1970-01-01'::date`;
    case 'time':
      return `'00:00:00'::${pgType}`;
    case 'timestamp':
      return `'1970-01-01 00:00:00'::${pgType}`;
    case 'timestamptz':
      return `'1970-01-01 00:00:00+00'::${pgType}`;
    case 'boolean':
      return 'false';
    case 'json':
      return `'"${MASK_TEXT}"'::${pgType}`;
    case 'binary':
      return `'\\x'::bytea`;
    default:
      return `null::${pgType}`;
  }
}

export interface KeyRef {
  /** A scalar subquery giving the key XOR 0x36 (64 bytes). */
  ipad: string;
  /** A scalar subquery giving the key XOR 0x5c (64 bytes). */
  opad: string;
}

/** The masked value of `column` (of `pgType`) under `policy`: an SQL expression of the same type. */
export function maskedColumnSql(policy: AppliedPolicy, column: string, pgType: string, key: KeyRef): string {
  const canonical = canonicalOf(pgType);
  const v = quote(column);
  const text = `${v}::text`;
  const whenSet = (expression: string) => `case when ${v} is null then null else (${expression})::${pgType} end`;
  const constant = () => whenSet(constantSql(canonical, pgType));
  switch (policy.method) {
    case 'null':
      return `null::${pgType}`;
    case 'full':
      return constant();
    case 'partial': {
      if (canonical !== 'string') return constant();
      const first = policy.options.keep_first ?? 0;
      const last = policy.options.keep_last ?? 4;
      return whenSet(
        `case when char_length(${text}) <= ${first + last} then repeat('*', char_length(${text})) ` +
          `else left(${text}, ${first}) || repeat('*', char_length(${text}) - ${first + last}) || right(${text}, ${last}) end`,
      );
    }
    case 'email_domain':
      if (canonical !== 'string') return constant();
      return whenSet(
        `case when strpos(${text}, '@') = 0 then ${literal(MASK_TEXT)} else ${literal(MASK_TEXT)} || substring(${text} from '@[^@]*$') end`,
      );
    case 'regex_replace': {
      if (canonical !== 'string') return constant();
      // The replacement is literal text: PostgreSQL would read \1 and \& in it.
      const replacement = (policy.options.replacement ?? MASK_TEXT).replaceAll('\\', '\\\\');
      return whenSet(
        `regexp_replace(${text}, ${literal(policy.options.pattern ?? '.+')}, ${literal(replacement)}, 'g')`,
      );
    }
    case 'hash': {
      if (!key.ipad) return constant();
      const digest = `sha256(${key.opad} || sha256(${key.ipad} || convert_to(${text}, 'UTF8')))`;
      const bits47 = `((('x' || encode(substring(${digest} from 1 for 8), 'hex'))::bit(64) >> 17)::bigint)`;
      switch (canonical) {
        case 'string':
          return whenSet(`left(encode(${digest}, 'hex'), 32)`);
        case 'int16':
          return whenSet(`${bits47} % 32768`);
        case 'int32':
          return whenSet(`${bits47} % 2147483648`);
        case 'int64':
        case 'decimal':
        case 'float32':
        case 'float64':
          return whenSet(bits47);
        case 'uuid':
          return whenSet(`encode(substring(${digest} from 1 for 16), 'hex')::uuid`);
        case 'binary':
          return whenSet(digest);
        default:
          return constant();
      }
    }
  }
}

/**
 * The select list of a relation's masked view for principals to whom `policies` apply: each column
 * (with its catalog tags, when known) under its winning policy (most restrictive first,
 * docs/masking.md), the others as they are.
 */
export function maskedSelectList(
  policies: AppliedPolicy[],
  columns: { name: string; type: string }[],
  key: KeyRef,
  tags: Map<string, string[]> = new Map(),
): string[] {
  return columns.map((column) => {
    const policy = winningPolicy(policies, {
      name: column.name,
      type: canonicalOf(column.type) ?? 'string',
      tags: tags.get(column.name),
    });
    return policy
      ? `${maskedColumnSql(policy, column.name, column.type, key)} as ${quote(column.name)}`
      : quote(column.name);
  });
}
