/**
 * Numbers the way PostgreSQL computes them: exact int64 (number while safe, bigint beyond), float8
 * arithmetic with its overflow/underflow errors, float8out/float4out text, numeric text and rounding.
 */
import { fail } from './steps.js';

// ---------------------------------------------------------------- integers (int64 as number | bigint)

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_MIN = -SAFE_MAX;

/**
 * In expressions an int64 is a number while it is a safe integer and a bigint beyond: exact, and
 * cheap for the common case. Normalising keeps `===` meaningful between the two representations.
 */
export type Int = number | bigint;

export function normalizeInt(value: bigint): Int {
  if (value > INT64_MAX || value < INT64_MIN) fail('bigint out of range');
  return value >= SAFE_MIN && value <= SAFE_MAX ? Number(value) : value;
}

/** A canonical int64 (digits) or any integer value to the expression representation. */
export function toInt(value: unknown): Int {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.length <= 15 ? Number(value) : normalizeInt(BigInt(value));
  return normalizeInt(value as bigint);
}

export function intAdd(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const sum = a + b;
    if (Number.isSafeInteger(sum)) return sum === 0 ? 0 : sum;
  }
  return normalizeInt(BigInt(a) + BigInt(b));
}

export function intSubtract(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const difference = a - b;
    if (Number.isSafeInteger(difference)) return difference === 0 ? 0 : difference;
  }
  return normalizeInt(BigInt(a) - BigInt(b));
}

export function intMultiply(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const product = a * b;
    if (Number.isSafeInteger(product)) return product === 0 ? 0 : product;
  }
  return normalizeInt(BigInt(a) * BigInt(b));
}

export function intModulo(a: Int, b: Int): Int {
  if (b === 0) fail('division by zero');
  if (typeof a === 'number' && typeof b === 'number') {
    const remainder = a % b;
    return remainder === 0 ? 0 : remainder;
  }
  return normalizeInt(BigInt(a) % BigInt(b));
}

export function intNegate(a: Int): Int {
  if (typeof a === 'number') return a === 0 ? 0 : -a;
  return normalizeInt(-a);
}

export function intAbs(a: Int): Int {
  if (typeof a === 'number') return Math.abs(a);
  return normalizeInt(a < 0n ? -a : a);
}

/** PostgreSQL's int4 arguments (substr, round): out of range is an error there. */
export function toInt32(value: Int): number {
  if (typeof value !== 'number' || value > 2147483647 || value < -2147483648) fail('integer out of range');
  return value;
}

// ---------------------------------------------------------------- float8 arithmetic (PostgreSQL checks)

const isInfinite = (x: number) => x === Infinity || x === -Infinity;

export function floatAdd(a: number, b: number): number {
  const sum = a + b;
  if (isInfinite(sum) && !isInfinite(a) && !isInfinite(b)) fail('value out of range: overflow');
  return sum;
}

export function floatSubtract(a: number, b: number): number {
  const difference = a - b;
  if (isInfinite(difference) && !isInfinite(a) && !isInfinite(b)) fail('value out of range: overflow');
  return difference;
}

export function floatMultiply(a: number, b: number): number {
  const product = a * b;
  if (isInfinite(product) && !isInfinite(a) && !isInfinite(b)) fail('value out of range: overflow');
  if (product === 0 && a !== 0 && b !== 0) fail('value out of range: underflow');
  return product;
}

export function floatDivide(a: number, b: number): number {
  if (b === 0 && !Number.isNaN(a)) fail('division by zero');
  const quotient = a / b;
  if (isInfinite(quotient) && !isInfinite(a)) fail('value out of range: overflow');
  if (quotient === 0 && a !== 0 && !isInfinite(b)) fail('value out of range: underflow');
  return quotient;
}

/** PostgreSQL orders NaN above every number and equal to itself. */
export function floatCompare(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
}

// ---------------------------------------------------------------- float text (float8out / float4out)

/** PostgreSQL's shortest-exact output: fixed notation for decimal exponents -4..14 (float4: -4..5), else d.ddde+XX. */
export function floatText(value: number, single = false): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const exponential = value.toExponential(); // shortest round-trip digits
  const at = exponential.indexOf('e');
  const exponent = Number(exponential.slice(at + 1));
  if (exponent >= -4 && exponent < (single ? 6 : 15)) return String(value);
  const magnitude = Math.abs(exponent);
  return `${exponential.slice(0, at)}e${exponent < 0 ? '-' : '+'}${magnitude < 10 ? '0' : ''}${magnitude}`;
}

/** float8 -> float4 as PostgreSQL does it (errors on overflow/underflow), as the JS number its text reads back as. */
export function toFloat4(value: number): number {
  const single = Math.fround(value);
  if (isInfinite(single) && !isInfinite(value)) fail('value out of range: overflow');
  if (single === 0 && value !== 0) fail('value out of range: underflow');
  if (!Number.isFinite(single) || single === 0) return single;
  for (let digits = 1; digits < 10; digits++) {
    const shortest = Number(single.toPrecision(digits));
    if (Math.fround(shortest) === single) return shortest;
  }
  return single;
}

// ---------------------------------------------------------------- numeric (decimal) text

/** A JS number as plain decimal digits (no exponent): numeric's and jsonb's text of it. */
export function plainNumber(value: number): string {
  const text = String(value);
  return text.includes('e') ? (numericText(text) ?? text) : text;
}

const WHITESPACE = '[ \\t\\n\\r\\v\\f]*';
const NUMERIC_PATTERN = new RegExp(
  `^${WHITESPACE}(?:([+-]?)([0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE]([+-]?[0-9]+))?|(nan)|([+-]?)(inf|infinity))${WHITESPACE}$`,
  'i',
);

/** numeric_in: the canonical numeric text of an input, or null when PostgreSQL would reject it. */
export function numericText(input: string): string | null {
  const match = NUMERIC_PATTERN.exec(input);
  if (!match) return null;
  if (match[4] !== undefined) return 'NaN';
  if (match[6] !== undefined) return match[5] === '-' ? '-Infinity' : 'Infinity';
  const mantissa = match[2]!;
  const point = mantissa.indexOf('.');
  const whole = point < 0 ? mantissa : mantissa.slice(0, point);
  const fraction = point < 0 ? '' : mantissa.slice(point + 1);
  const exponent = match[3] === undefined ? 0 : Number(match[3]);
  if (exponent > 1000 || exponent < -1000) return null;
  const digits = whole + fraction;
  const pointAt = whole.length + exponent; // position of the decimal point within `digits`
  let integerPart: string;
  let fractionPart: string;
  if (pointAt <= 0) {
    integerPart = '0';
    fractionPart = '0'.repeat(-pointAt) + digits;
  } else if (pointAt >= digits.length) {
    integerPart = digits + '0'.repeat(pointAt - digits.length);
    fractionPart = '';
  } else {
    integerPart = digits.slice(0, pointAt);
    fractionPart = digits.slice(pointAt);
  }
  integerPart = integerPart.replace(/^0+(?=\d)/, '');
  const zero = /^0*$/.test(integerPart) && /^0*$/.test(fractionPart);
  return `${match[1] === '-' && !zero ? '-' : ''}${integerPart}${fractionPart ? `.${fractionPart}` : ''}`;
}

/** A numeric text as float8 the way PostgreSQL converts it (correct rounding, range errors). */
export function decimalToFloat(text: string): number {
  const value = Number(text);
  if (value === 0 || !Number.isFinite(value)) {
    if (Number.isNaN(value) && text !== 'NaN') fail(`invalid number "${text}"`);
    if (isInfinite(value) && !/Infinity$/.test(text)) fail('value out of range: overflow');
    if (value === 0 && /[1-9]/.test(text)) fail('value out of range: underflow');
  }
  return value;
}

/** Rounds a plain decimal text (no exponent) half away from zero to `digits` after the point (may be negative). */
export function roundDecimalText(text: string, digits: number): string {
  if (text === 'NaN' || text.endsWith('Infinity')) return text;
  const negative = text.startsWith('-');
  const unsigned = negative ? text.slice(1) : text;
  const point = unsigned.indexOf('.');
  const whole = point < 0 ? unsigned : unsigned.slice(0, point);
  const fraction = point < 0 ? '' : unsigned.slice(point + 1);
  if (digits >= fraction.length) return text;
  const all = whole + fraction;
  const keep = whole.length + digits; // digits of `all` that stay
  if (keep < 0) return '0';
  let kept = all.slice(0, keep);
  if (all.charCodeAt(keep) >= 53 /* '5' */) kept = incrementDigits(kept);
  // kept is the result scaled by 10^digits
  let result: string;
  if (digits > 0) {
    const padded = kept.padStart(digits + 1, '0');
    result = `${padded.slice(0, padded.length - digits)}.${padded.slice(padded.length - digits)}`;
  } else {
    result = (kept || '0') + '0'.repeat(-digits);
  }
  result = result.replace(/^0+(?=\d)/, '');
  return negative && /[1-9]/.test(result) ? `-${result}` : result;
}

function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + '0'.repeat(digits.length - i - 1);
}

/** Exact numeric ordering of two numeric texts; NaN above everything, as in PostgreSQL. */
export function compareDecimal(a: string, b: string): number {
  if (a === b) return 0;
  const rankA = decimalRank(a);
  const rankB = decimalRank(b);
  if (rankA !== 0 || rankB !== 0) return rankA === rankB ? 0 : rankA < rankB ? -1 : 1;
  const negativeA = a.startsWith('-');
  const negativeB = b.startsWith('-');
  const [wholeA, fractionA] = decimalParts(negativeA ? a.slice(1) : a);
  const [wholeB, fractionB] = decimalParts(negativeB ? b.slice(1) : b);
  const zeroA = wholeA === '' && fractionA === '';
  const zeroB = wholeB === '' && fractionB === '';
  const signA = zeroA ? 0 : negativeA ? -1 : 1;
  const signB = zeroB ? 0 : negativeB ? -1 : 1;
  if (signA !== signB) return signA < signB ? -1 : 1;
  let magnitude: number;
  if (wholeA.length !== wholeB.length) magnitude = wholeA.length < wholeB.length ? -1 : 1;
  else if (wholeA !== wholeB) magnitude = wholeA < wholeB ? -1 : 1;
  else magnitude = fractionA === fractionB ? 0 : fractionA < fractionB ? -1 : 1;
  return signA < 0 ? -magnitude : magnitude;
}

const decimalRank = (text: string) => (text === 'NaN' ? 2 : text === 'Infinity' ? 1 : text === '-Infinity' ? -1 : 0);

/** [whole without leading zeros, fraction without trailing zeros] */
function decimalParts(unsigned: string): [string, string] {
  const point = unsigned.indexOf('.');
  const whole = (point < 0 ? unsigned : unsigned.slice(0, point)).replace(/^0+/, '');
  const fraction = point < 0 ? '' : unsigned.slice(point + 1).replace(/0+$/, '');
  return [whole, fraction];
}

/** The same number always gives the same key: 1.50 and 1.5 are equal in PostgreSQL. */
export function decimalKey(text: string): string {
  if (decimalRank(text) !== 0) return text;
  const negative = text.startsWith('-');
  const [whole, fraction] = decimalParts(negative ? text.slice(1) : text);
  if (whole === '' && fraction === '') return '0';
  return `${negative ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`;
}
