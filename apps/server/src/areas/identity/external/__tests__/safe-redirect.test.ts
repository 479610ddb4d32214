import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../service.js';

describe('the SSO landing page', () => {
  it('keeps a path of this service, query and fragment included', () => {
    expect(safeRedirect('/pipelines?project=1#top')).toBe('/pipelines?project=1#top');
    expect(safeRedirect(undefined)).toBe('/');
  });

  it('never leaves this origin', () => {
    for (const target of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'evil',
      '/ /evil.example',
      '/%09/evil.example'.replace('%09', '\u0009'),
    ]) {
      expect(safeRedirect(target), JSON.stringify(target)).toBe('/');
    }
  });
});
