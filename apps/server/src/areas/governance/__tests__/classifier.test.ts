import { describe, expect, it } from 'vitest';
import { luhnValid, tagsByName, tagsByValues } from '../catalog/classifier.js';

describe('personal data classifier', () => {
  it('suggests tags by column name, camelCase and snake_case alike', () => {
    expect(tagsByName('email')).toEqual(['email', 'pii']);
    expect(tagsByName('customerEmail')).toEqual(['email', 'pii']);
    expect(tagsByName('billing_phone_number')).toEqual(['phone', 'pii']);
    expect(tagsByName('date_of_birth')).toEqual(['birth_date', 'pii']);
    expect(tagsByName('client_ip')).toEqual(['ip_address', 'pii']);
    expect(tagsByName('amount')).toEqual([]);
    expect(tagsByName('shipping')).toEqual([]);
    expect(tagsByName('description')).toEqual([]);
  });

  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it('suggests tags from values when most of a sample matches', () => {
    expect(tagsByValues(['a@example.com', 'b@example.org', 'c@example.net', null])).toEqual(['email', 'pii']);
    expect(tagsByValues(['4111 1111 1111 1111', '5500-0000-0000-0004', '340000000000009'])).toEqual([
      'card_number',
      'pii',
    ]);
    // Sixteen digits that fail Luhn are not card numbers.
    expect(tagsByValues(['4111111111111112', '5500000000000005', '1234567890123456'])).toEqual([]);
    expect(tagsByValues(['10.0.0.1', '2001:db8::1', '192.168.1.20'])).toEqual(['ip_address', 'pii']);
    expect(tagsByValues(['+49 30 1234567', '(555) 123-4567', '+1-202-555-0143'])).toEqual(['phone', 'pii']);
    expect(tagsByValues(['123-45-6789', '078-05-1120', '219-09-9999'])).toEqual(['national_id', 'pii']);
    expect(
      tagsByValues(['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432', 'FR1420041010050500013M02606']),
    ).toEqual(['bank_account', 'pii']);
    // Ids, dates, amounts and too few values say nothing.
    expect(tagsByValues([1234567, 2345678, 3456789])).toEqual([]);
    // Amounts as PostgreSQL sends numerics (text) are not phone numbers.
    expect(tagsByValues(['10000.00', '25000.50', '1234567.89'])).toEqual([]);
    expect(tagsByValues(['2024-01-02', '2024-02-03', '2024-03-04'])).toEqual([]);
    expect(tagsByValues(['a@example.com', 'b@example.com'])).toEqual([]);
    // Below the share: one e-mail among plain words.
    expect(tagsByValues(['a@example.com', 'plain', 'words', 'here'])).toEqual([]);
  });
});
