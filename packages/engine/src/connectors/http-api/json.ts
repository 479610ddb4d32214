/**
 * JSON bodies without lost digits, and the simple JSON paths of the configuration.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992, so a body holding a long digit run is
 * parsed with lossless-json, keeping integers beyond 2^53 as JsonInteger (their text). Everything
 * else parses exactly as JSON.parse would.
 */
import { isSafeNumber, parse } from 'lossless-json';

/** An integer too large for a double, as written in the body. */
export class JsonInteger {
  constructor(readonly text: string) {}
}

/** An integer beyond 2^53 has at least 16 digits. */
const LONG_DIGITS = /\d{16}/;

/** Integers that a double cannot hold stay text; every other number is a number, as JSON.parse makes it. */
function parseNumber(text: string): number | JsonInteger {
  if (/^-?\d+$/.test(text) && !isSafeNumber(text)) return new JsonInteger(text);
  return Number(text);
}

export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return parse(text, null, parseNumber);
}

/** A parsed value with JsonInteger turned back into plain numbers, for json columns (digits beyond 2^53 are lost there). */
export function toPlain(value: unknown): unknown {
  if (value instanceof JsonInteger) return Number(value.text);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toPlain(inner)]));
  }
  return value;
}

export const JSON_PATH_PATTERN = '^\\$(\\.[A-Za-z0-9_$-]+|\\[\\d+\\])*$';
const STEP = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]/g;

export type JsonPath = Array<string | number>;

/** The steps of a path, or undefined when it is not one this connector understands. */
export function compilePath(path: string): JsonPath | undefined {
  if (!new RegExp(JSON_PATH_PATTERN).test(path)) return undefined;
  return [...path.slice(1).matchAll(STEP)].map((match) => (match[1] !== undefined ? match[1] : Number(match[2])));
}

/** The value at a path, undefined when a step is missing. */
export function valueAt(document: unknown, path: JsonPath): unknown {
  let current = document;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof step === 'number' ? !Array.isArray(current) : Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}
