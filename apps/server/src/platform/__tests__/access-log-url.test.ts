import { describe, expect, it } from 'vitest';
import { accessLogUrl } from '../logging.js';

describe('accessLogUrl', () => {
  it('redacts token and access_token by decoded name, in any case and encoding', () => {
    for (const name of [
      'token',
      'TOKEN',
      'Token',
      '%74oken',
      '%74%6F%6B%65%6E',
      'tok%65n',
      'access_token',
      'ACCESS_TOKEN',
      'access%5Ftoken',
      '%61ccess_token',
    ]) {
      expect(accessLogUrl(`/a/b?x=1&${name}=secret.jwt.value&y=2`)).toBe(`/a/b?x=1&${name}=[redacted]&y=2`);
    }
  });

  it('reads the query from the first ? or # as the router does', () => {
    expect(accessLogUrl('/a#token=secret')).toBe('/a#token=[redacted]');
    expect(accessLogUrl('/a#b&token=secret')).toBe('/a#b&token=[redacted]');
    expect(accessLogUrl('/a?token=secret#x')).toBe('/a?token=[redacted]');
  });

  it('redacts a name with an invalid escape elsewhere in it, and repeated parameters', () => {
    expect(accessLogUrl('/a?%74oken%ZZ=secret')).toBe('/a?%74oken%ZZ=secret'); // not "token" for the router either
    expect(accessLogUrl('/a?token=one&token=two')).toBe('/a?token=[redacted]&token=[redacted]');
    expect(accessLogUrl('/a?token')).toBe('/a?token=[redacted]');
  });

  it('leaves other parameters and URLs without a query as they are', () => {
    for (const url of ['/a', '/a?tokens=1', '/a?page_token=1', '/a?q=token', '/a?q=%20x', '/a?my+token=1'])
      expect(accessLogUrl(url)).toBe(url);
  });
});
