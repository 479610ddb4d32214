/**
 * JSON text in and out without losing digits. JSON.parse turns 9223372036854775807 into a double;
 * here the numbers that are fields of a row keep their source text (JsonNumber), so int64 and
 * decimal columns read back exact. Nested values (json columns) are parsed as usual.
 */

/** A number as written in the file. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A number long enough to lose digits in a double has 16 or more digits (and points) in a row. */
const LONG_NUMBER = /[0-9.]{16}/;

/**
 * Parses like JSON.parse; numbers at nesting depth `fieldDepth` (1 for the fields of an NDJSON line,
 * 2 for the fields of the rows of a top-level array) become JsonNumber when they could lose digits.
 */
export function parseRows(text: string, fieldDepth: number): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return new LosslessParser(text, fieldDepth).parseDocument();
}

const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

class LosslessParser {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly fieldDepth: number,
  ) {}

  parseDocument(): unknown {
    const value = this.value(0);
    this.skipSpace();
    if (this.at !== this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.at}`);
  }

  private skipSpace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private value(depth: number): unknown {
    this.skipSpace();
    const char = this.text[this.at];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER_TOKEN.lastIndex = this.at;
    const match = NUMBER_TOKEN.exec(this.text);
    if (!match) this.fail('unexpected character');
    this.at = NUMBER_TOKEN.lastIndex;
    const n = Number(match[0]);
    return depth === this.fieldDepth && String(n) !== match[0] && LONG_NUMBER.test(match[0]) ? new JsonNumber(match[0]) : n;
  }

  private string(): string {
    const start = this.at;
    let i = start + 1;
    for (;;) {
      const char = this.text[i];
      if (char === undefined) this.fail('unterminated string');
      if (char === '\\') i += 2;
      else if (char === '"') break;
      else i += 1;
    }
    this.at = i + 1;
    return JSON.parse(this.text.slice(start, this.at)) as string; // escapes, validated by the engine's own parser
  }

  private object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') this.fail('expected a property name');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail("expected ':'");
      this.at += 1;
      result[key] = this.value(depth + 1);
      this.skipSpace();
      const char = this.text[this.at++];
      if (char === '}') return result;
      if (char !== ',') this.fail("expected ',' or '}'");
    }
  }

  private array(depth: number): unknown[] {
    const result: unknown[] = [];
    this.at += 1;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return result;
    }
    for (;;) {
      result.push(this.value(depth + 1));
      this.skipSpace();
      const char = this.text[this.at++];
      if (char === ']') return result;
      if (char !== ',') this.fail("expected ',' or ']'");
    }
  }
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** int64 and decimal strings go out as bare JSON numbers, so that readers see numbers; anything else as a string. */
export function numberLiteral(text: string): string {
  return JSON_NUMBER.test(text) ? text : JSON.stringify(text);
}
