/**
 * JSON text in and out without losing digits. JSON.parse turns 9223372036854775807 into a double;
 * here the numbers that are fields of a row keep their source text (JsonNumber), so int64 and
 * decimal columns read back exact. Nested values (json columns) are parsed as usual.
 */

import { isSafeNumber, parse } from 'lossless-json';

/** A number as written in the file. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A number long enough to lose digits in a double has 16 or more digits (and points) in a row. */
const LONG_NUMBER = /[0-9.]{16}/;

/** Numbers that a double holds exactly stay numbers; the others keep their text. */
function parseNumber(text: string): number | JsonNumber {
  return isSafeNumber(text) ? Number(text) : new JsonNumber(text);
}

/** Nested values (json columns) are plain JSON: their long numbers become doubles, as JSON.parse makes them. */
function plain(value: unknown): unknown {
  if (value instanceof JsonNumber) return Number(value.text);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** Keeps JsonNumber at the fields of the rows (depth `fieldDepth`), plain JSON below them. */
function atFields(value: unknown, depth: number, fieldDepth: number): unknown {
  if (depth === fieldDepth) return value instanceof JsonNumber ? value : plain(value);
  if (Array.isArray(value)) return value.map((v) => atFields(v, depth + 1, fieldDepth));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, atFields(v, depth + 1, fieldDepth)]));
  return value instanceof JsonNumber ? Number(value.text) : value;
}

/**
 * Parses like JSON.parse; numbers at nesting depth `fieldDepth` (1 for the fields of an NDJSON line,
 * 2 for the fields of the rows of a top-level array) become JsonNumber when they could lose digits.
 * Long numbers go through lossless-json; text without one takes JSON.parse's fast path.
 */
export function parseRows(text: string, fieldDepth: number): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return atFields(parse(text, null, parseNumber), 0, fieldDepth);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** int64 and decimal strings go out as bare JSON numbers, so that readers see numbers; anything else as a string. */
export function numberLiteral(text: string): string {
  return JSON_NUMBER.test(text) ? text : JSON.stringify(text);
}
