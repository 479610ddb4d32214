/**
 * Which columns look like personal data: by their names (at discovery) and by a sample of their
 * values (on request). Each finding is a tag suggested to a user, who confirms or dismisses it; a
 * tag confirmed on a column is what masking policies by tag match. Every suggestion also carries
 * `pii`, the tag a single policy can cover all personal data with.
 */
import { isIP } from 'node:net';

export const PII = 'pii';

const NAME_RULES: Array<[RegExp, string]> = [
  [/(^|_)(e_?mail|email_address|mail)($|_)/, 'email'],
  [/(^|_)(phone|mobile|telephone|tel|fax|msisdn)($|_)/, 'phone'],
  [/(^|_)(card_?(number|no|num)?|cc_?(number|num)|pan|credit_?card)($|_)/, 'card_number'],
  [/(^|_)(ssn|social_security(_number)?|national_?id|nin|tax_?id|passport(_number|_no)?)($|_)/, 'national_id'],
  [/(^|_)(iban|bank_?account|account_?number)($|_)/, 'bank_account'],
  [/(^|_)(ip|ip_?addr(ess)?|client_?ip|remote_?addr)($|_)/, 'ip_address'],
  [/(^|_)(first_?name|last_?name|full_?name|surname|given_?name|family_?name)($|_)/, 'person_name'],
  [/(^|_)(address|street|postal_?code|zip_?code|zip)($|_)/, 'address'],
  [/(^|_)(birth_?date|date_?of_?birth|dob|birthday)($|_)/, 'birth_date'],
];

/** Tags a column's name suggests (lower-cased, camelCase split into words). */
export function tagsByName(column: string): string[] {
  const name = column
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  const found = NAME_RULES.filter(([pattern]) => pattern.test(name)).map(([, tag]) => tag);
  return found.length ? [...new Set([...found, PII])] : [];
}

/** The Luhn checksum of a card number's digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The ISO 13616 check of an IBAN (mod 97 of the rearranged number is 1). */
function ibanValid(value: string): boolean {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
const PHONE = /^\+?[\d\s().-]{7,20}$/;
const SSN = /^(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}$/;

const VALUE_RULES: Array<[string, (value: string) => boolean]> = [
  ['email', (v) => EMAIL.test(v)],
  [
    'card_number',
    (v) => {
      const digits = v.replace(/[\s-]/g, '');
      return /^\d{13,19}$/.test(digits) && luhnValid(digits);
    },
  ],
  ['national_id', (v) => SSN.test(v)],
  ['bank_account', (v) => ibanValid(v)],
  ['ip_address', (v) => isIP(v) !== 0],
  [
    'phone',
    // Written as a phone number is: a leading + or separators (a bare run of digits is more likely an id).
    (v) =>
      PHONE.test(v) &&
      !/^[-+]?\d+([.,]\d+)?$/.test(v) &&
      /[+\s().-]/.test(v) &&
      (v.match(/\d/g)?.length ?? 0) >= 7 &&
      !/^\d{4}-\d{2}-\d{2}/.test(v) &&
      isIP(v) === 0,
  ],
];

/** Share of the sampled non-empty values a rule must match to suggest its tag. */
export const VALUE_SHARE = 0.8;
/** Fewer non-empty values than this say nothing. */
export const MIN_VALUES = 3;

/** Tags a sample of a column's values suggests: the first rule most of them match. */
export function tagsByValues(values: unknown[]): string[] {
  const texts = values
    .filter((v) => v !== null && v !== undefined && typeof v !== 'object')
    .map((v) => String(v).trim())
    .filter((v) => v !== '');
  if (texts.length < MIN_VALUES) return [];
  for (const [tag, matches] of VALUE_RULES) {
    const share = texts.filter(matches).length / texts.length;
    if (share >= VALUE_SHARE) return [tag, PII];
  }
  return [];
}
