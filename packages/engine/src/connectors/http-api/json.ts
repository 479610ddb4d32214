/**
 * JSON bodies without lost digits, and the simple JSON paths of the configuration.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992; Node 20 has no source text in revivers,
 * so a body holding a long digit run goes through a small parser that keeps integers beyond 2^53 as
 * JsonInteger (their text). Everything else parses exactly as JSON.parse would.
 */

/** An integer too large for a double, as written in the body. */
export class JsonInteger {
  constructor(readonly text: string) {}
}

/** An integer beyond 2^53 has at least 16 digits. */
const LONG_DIGITS = /\d{16}/;

export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return new LosslessParser(text).document();
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

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// JSON forbids raw control characters in strings; the pattern must name them.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;

class LosslessParser {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.at}`);
  }

  private space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  private token(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) this.fail('invalid JSON');
    this.at = pattern.lastIndex;
    return match[0];
  }

  private value(): unknown {
    this.space();
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return JSON.parse(this.token(STRING)) as string;
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    const text = this.token(NUMBER);
    const number = Number(text);
    return /^-?\d+$/.test(text) && !Number.isSafeInteger(number) ? new JsonInteger(text) : number;
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return result;
    }
    for (;;) {
      this.space();
      const key = JSON.parse(this.token(STRING)) as string;
      this.space();
      if (this.text[this.at++] !== ':') this.fail('expected ":"');
      // defineProperty: a "__proto__" key is data, as with JSON.parse.
      Object.defineProperty(result, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.space();
      const next = this.text[this.at++];
      if (next === '}') return result;
      if (next !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value());
      this.space();
      const next = this.text[this.at++];
      if (next === ']') return result;
      if (next !== ',') this.fail('expected "," or "]"');
    }
  }
}

/** `$`, then `.name` or `[index]` steps: `$`, `$.data.items`, `$.pages[0].rows`. */
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
