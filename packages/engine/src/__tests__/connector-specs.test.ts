import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registry } from '../registry.js';
import type { ConfigSpec } from '../types.js';

/**
 * The JSON Schema of each kind as the API serves it: the web UI draws its forms from it (titles,
 * defaults, descriptions, secrets, and the order of the fields), and stored configurations were
 * validated against it. A change here is a change of the API.
 */
const served: Array<{ kind: string; version: number; spec: ConfigSpec }> = JSON.parse(
  readFileSync(new URL('./fixtures/connector-specs.json', import.meta.url), 'utf8'),
);

describe('connector configuration schemas', () => {
  it('are the JSON Schemas the API serves, field for field and in order', () => {
    const latest = registry
      .latest()
      .map((c) => ({ kind: c.kind, version: c.version, spec: JSON.parse(JSON.stringify(c.spec)) as ConfigSpec }));
    expect(latest).toEqual(served);
    for (const [i, kind] of latest.entries())
      expect(Object.keys(kind.spec.properties)).toEqual(Object.keys(served[i]!.spec.properties));
  });
});
