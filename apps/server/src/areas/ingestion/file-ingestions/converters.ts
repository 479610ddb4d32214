/**
 * Formats read whole and handed to the row loader as NDJSON: a JSON array (or one object), an
 * Excel workbook (.xlsx: the first worksheet, its first row naming the columns) and Parquet. Each
 * value keeps its JSON type (numbers, booleans, text; dates as ISO text), so inference works on it
 * as on NDJSON. These formats are not streamed: a file is read into memory to be converted. The
 * parsers are loaded on first use (exceljs alone is about 30 MB of code a process would carry idle).
 */
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import type ExcelJS from 'exceljs';

export type ConvertedFormat = 'json' | 'xlsx' | 'parquet';

const plain = (value: unknown): unknown => {
  if (value === undefined) return null;
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
};

/** An Excel cell's value as JSON: formulas by their result, rich text by its text, links by their text. */
const cellValue = (value: ExcelJS.CellValue): unknown => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return value;
  if ('result' in value) return cellValue(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return typeof value.text === 'string' ? value.text : null;
  if ('error' in value) return null;
  return null;
};

async function* objectsOf(path: string, format: ConvertedFormat): AsyncIterable<Record<string, unknown>> {
  if (format === 'json') {
    const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (!item || typeof item !== 'object' || Array.isArray(item))
        throw new Error('holds an item that is not a JSON object');
      yield item as Record<string, unknown>;
    }
    return;
  }
  if (format === 'parquet') {
    const bytes = await readFile(path);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const { parquetReadObjects } = await import('hyparquet');
    for (const row of await parquetReadObjects({ file })) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) out[k] = plain(v);
      yield out;
    }
    return;
  }
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.worksheets[0];
  if (!sheet) return;
  let header: string[] | undefined;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: unknown[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellValue(row.getCell(c).value));
    if (!header) {
      header = cells.map((v, i) => (v === null || String(v).trim() === '' ? `column_${i + 1}` : String(v).trim()));
      continue;
    }
    if (cells.every((v) => v === null)) continue;
    const out: Record<string, unknown> = {};
    header.forEach((name, i) => (out[name] = cells[i] ?? null));
    yield out;
  }
}

/** Writes the file's rows as NDJSON to `target`. */
export async function convertToNdjson(path: string, format: ConvertedFormat, target: string): Promise<void> {
  const out = createWriteStream(target);
  try {
    for await (const object of objectsOf(path, format))
      if (!out.write(`${JSON.stringify(object)}\n`)) await once(out, 'drain');
  } finally {
    out.end();
    await once(out, 'close');
  }
}
