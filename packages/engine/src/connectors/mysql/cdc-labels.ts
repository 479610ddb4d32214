/**
 * ENUM and SET labels for decoding the binlog. A row event carries an enum's index (a set's bit
 * mask), not its label. With binlog_row_metadata=FULL the event carries the labels itself; otherwise
 * zongji takes them from information_schema's COLUMN_TYPE and splits that text on commas without
 * undoing SQL quoting, so `quo''te` stays doubled and a label with a comma shifts every later one.
 * MariaDB also stores COLUMN_TYPE (and SHOW CREATE TABLE) in utf8mb3, so a label outside the Basic
 * Multilingual Plane reads `?` there. Here the labels are parsed as SQL literals, and read exactly from
 * a one-column temporary copy of the column filled by index, which answers in the column's own charset.
 */
import type { PoolConnection, RowDataPacket } from 'mysql2';
import { qualified, quoteIdent } from './client.js';

/** The labels of `enum('a','quo''te','c,d')` or `set(...)`: SQL string literals, '' and backslash escapes undone. */
export function labelsOfColumnType(columnType: string): string[] | undefined {
  const open = /^(enum|set)\(/i.exec(columnType);
  if (!open) return undefined;
  const labels: string[] = [];
  let i = open[0].length;
  while (i < columnType.length && columnType[i] === "'") {
    let label = '';
    for (i += 1; i < columnType.length; i += 1) {
      const c = columnType[i]!;
      if (c === "'" && columnType[i + 1] === "'") {
        label += "'";
        i += 1;
      } else if (c === '\\' && i + 1 < columnType.length) {
        label += columnType[i + 1];
        i += 1;
      } else if (c === "'") break;
      else label += c;
    }
    labels.push(label);
    i += 1; // past the closing quote
    if (columnType[i] === ',') i += 1;
  }
  return labels;
}

export interface ExactLabels {
  /** The COLUMN_TYPE text they were read for: a later table map with other text (an ALTER) falls back to parsing. */
  columnType: string;
  labels: string[];
}

/**
 * The exact labels of the table's ENUM and SET columns whose COLUMN_TYPE shows a `?`, by column name.
 * Needs CREATE TEMPORARY TABLES; without it (or on any error) the parsed labels are used.
 */
export async function exactLabels(
  conn: PoolConnection,
  database: string,
  table: string,
): Promise<Map<string, ExactLabels>> {
  const p = conn.promise();
  const exact = new Map<string, ExactLabels>();
  const [columns] = await p.query<RowDataPacket[]>(
    `select column_name as name, column_type as type from information_schema.columns
      where table_schema = ? and table_name = ? and data_type in ('enum', 'set')`,
    [database, table],
  );
  for (const { name, type } of columns as { name: string; type: string }[]) {
    const parsed = labelsOfColumnType(type);
    if (!parsed?.some((label) => label.includes('?'))) continue;
    const isSet = /^set/i.test(type);
    const probe = `svc_labels_${Math.random().toString(36).slice(2, 10)}`;
    try {
      await p.query(
        `create temporary table ${quoteIdent(probe)} select ${quoteIdent(name)} as v from ${qualified(database, table)} limit 0`,
      );
      const values = parsed.map((_, index) => (isSet ? 2 ** index : index + 1));
      await p.query(`insert into ${quoteIdent(probe)} (v) values ${values.map(() => '(?)').join(', ')}`, values);
      const [rows] = await p.query<RowDataPacket[]>(`select v from ${quoteIdent(probe)} order by v + 0`);
      exact.set(name, { columnType: type, labels: rows.map((row) => String(row['v'])) });
    } catch {
      // No privilege for temporary tables: the parsed labels stand (a label outside the BMP reads `?`).
    } finally {
      await p.query(`drop temporary table if exists ${quoteIdent(probe)}`).catch(() => undefined);
    }
  }
  return exact;
}

interface ZongjiColumnSchema {
  COLUMN_NAME: string;
  COLUMN_TYPE: string;
  ENUM_VALUES?: string[];
  SET_VALUES?: string[];
}

/**
 * Gives zongji's column schemas of one table map the right labels, before it decodes the row events
 * that follow (it reads ENUM_VALUES / SET_VALUES before parsing COLUMN_TYPE). Schemas that came
 * with the event (binlog_row_metadata=FULL) already have them and are left alone.
 */
export function fixLabels(columnSchemas: ZongjiColumnSchema[], exact: Map<string, ExactLabels>): void {
  for (const schema of columnSchemas) {
    if (schema.ENUM_VALUES || schema.SET_VALUES) continue;
    const known = exact.get(schema.COLUMN_NAME);
    const labels = known?.columnType === schema.COLUMN_TYPE ? known.labels : labelsOfColumnType(schema.COLUMN_TYPE);
    if (!labels) continue;
    if (/^enum/i.test(schema.COLUMN_TYPE)) schema.ENUM_VALUES = labels;
    else schema.SET_VALUES = labels;
  }
}
