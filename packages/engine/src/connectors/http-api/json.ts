/**
 * JSON bodies without lost digits, and the simple JSON paths of the configuration.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992, so integers beyond 2^53 are kept as
 * JsonInteger (their text). Everything else parses exactly as JSON.parse would. Response bodies are
 * parsed as they stream in (JsonBodyParser), keeping only the records not yet handed on.
 */
import { TokenParser, Tokenizer } from '@streamparser/json';
import { isSafeNumber } from 'lossless-json';
import type { JsonValue } from '../../types.js';

/** An integer too large for a double, as written in the body. */
export class JsonInteger {
  constructor(readonly text: string) {}
}

/** Integers that a double cannot hold stay text; every other number is a number, as JSON.parse makes it. */
function parseNumber(text: string): number | JsonInteger {
  if (/^-?\d+$/.test(text) && !isSafeNumber(text)) return new JsonInteger(text);
  return Number(text);
}

/** A parsed value with JsonInteger turned back into plain numbers, for json columns (digits beyond 2^53 are lost there). */
export function toPlain(value: unknown): JsonValue {
  if (value instanceof JsonInteger) return Number(value.text);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toPlain(inner)]));
  }
  // The parser's output holds nothing but JSON: what is left is a scalar.
  return value as JsonValue;
}

export const JSON_PATH_PATTERN = '^\\$(\\.[A-Za-z0-9_$-]+|\\[\\d+\\])*$';
const STEP = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]/g;

export type JsonPath = Array<string | number>;

/** The steps of a path, or undefined when it is not one this connector understands. */
export function compilePath(path: string): JsonPath | undefined {
  if (!new RegExp(JSON_PATH_PATTERN).test(path)) return undefined;
  return [...path.slice(1).matchAll(STEP)].map((match) => (match[1] !== undefined ? match[1] : Number(match[2])));
}

/** A tokenizer that keeps integers beyond 2^53 exact, as JsonInteger. */
class LosslessTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    return parseNumber(text) as number;
  }
}

const samePath = (a: ReadonlyArray<string | number | undefined>, b: JsonPath) =>
  a.length === b.length && a.every((step, i) => String(step) === String(b[i]));

/** A body that is not one JSON document. */
export class NotJson extends Error {}

/**
 * Streams a JSON body: each element of the array at `records` goes to the sink of the `write` that
 * completes it (and is then dropped from the document being built), the values at `wanted` are kept.
 */
export class JsonBodyParser {
  readonly values = new Map<JsonPath, unknown>();
  /** Set when the records path leads to something other than an array (or null). */
  notAnArray: string | undefined;
  private sink: unknown[] = [];
  private readonly tokenizer = new LosslessTokenizer();
  private readonly parser: TokenParser;
  /** Whether the body held anything but white space (an incomplete document fails in end()). */
  private started = false;

  constructor(
    private readonly records: JsonPath,
    private readonly wanted: JsonPath[],
  ) {
    const selector = (path: ReadonlyArray<string | number>) => ['$', ...path.map(String)].join('.');
    this.parser = new TokenParser({
      paths: [selector([...records, '*']), selector(records), ...wanted.map(selector)],
      keepStack: false,
    });
    this.tokenizer.onToken = (token) => {
      this.started = true;
      this.parser.write(token);
    };
    this.tokenizer.onEnd = () => {
      if (!this.parser.isEnded) this.parser.end();
    };
    this.parser.onError = this.tokenizer.error.bind(this.tokenizer);
    this.parser.onEnd = () => {
      if (!this.tokenizer.isEnded) this.tokenizer.end();
    };
    this.parser.onValue = (info) => this.receive(info);
  }

  /** Throws NotJson when the body is not JSON. */
  write(chunk: Uint8Array, sink: unknown[]): void {
    this.sink = sink;
    try {
      this.tokenizer.write(chunk);
    } catch (error) {
      throw new NotJson((error as Error).message);
    }
  }

  /** Throws NotJson when the body ended before its document did. */
  end(): void {
    try {
      // The tokenizer ends by itself after a complete document.
      if (!this.tokenizer.isEnded) this.tokenizer.end();
    } catch (error) {
      throw new NotJson((error as Error).message);
    }
    if (!this.started) throw new NotJson('the body is empty');
  }

  private receive({ value, key, parent, stack }: Parameters<TokenParser['onValue']>[0]): void {
    const path = stack.length === 0 ? [] : [...stack.slice(1).map((element) => element.key), key];
    if (path.length === this.records.length + 1 && samePath(path.slice(0, -1), this.records)) {
      if (Array.isArray(parent)) this.sink.push(value);
      else this.notAnArray ??= parent === null ? 'null' : typeof parent;
      return;
    }
    if (samePath(path, this.records)) {
      if (value !== null && !Array.isArray(value)) this.notAnArray ??= typeof value;
      return;
    }
    for (const wanted of this.wanted) if (samePath(path, wanted)) this.values.set(wanted, value);
  }
}
