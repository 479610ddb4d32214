/**
 * The built UI (npm test builds it first) within its size limits, gzipped: the first screen (the
 * sign-in page: what index.html loads and everything those modules import statically) under 150 kB,
 * and no chunk over 250 kB. Screens are chunks of their own, loaded when first shown.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve('apps/web/dist');
const KB = 1024;

const gzipped = async (file: string) => gzipSync(await readFile(path.join(DIST, file))).length;

/** The module and the modules it imports statically (not `import()`), transitively. */
async function staticClosure(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(path.join(DIST, file), 'utf8');
    for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)[^"'()]*?from\s*["']\.\/([^"']+\.js)["']/g))
      await visit(path.posix.join(path.posix.dirname(file), match[1]!));
    for (const match of code.matchAll(/(?:^|[;\s}])import\s*["']\.\/([^"']+\.js)["']/g))
      await visit(path.posix.join(path.posix.dirname(file), match[1]!));
  };
  await visit(entry);
  return seen;
}

describe('the web bundle', () => {
  it('loads the first screen in under 150 kB and splits the rest into chunks under 250 kB', async () => {
    const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(entries.length).toBeGreaterThan(0);
    const first = new Set<string>();
    for (const entry of entries) for (const file of await staticClosure(entry)) first.add(file);
    let firstScreen = 0;
    for (const file of first) firstScreen += await gzipped(file);
    const chunks = (await readdir(path.join(DIST, 'assets'))).filter((f) => f.endsWith('.js'));
    const sizes = await Promise.all(chunks.map(async (f) => [f, await gzipped(`assets/${f}`)] as const));
    expect(firstScreen, `first screen: ${[...first].join(', ')}`).toBeLessThan(150 * KB);
    for (const [file, size] of sizes) expect(size, file).toBeLessThan(250 * KB);
    // The screens are not in the first load: the bundle is really split.
    expect(chunks.length).toBeGreaterThan(first.size + 5);
    expect([...first].some((f) => /Pipelines|Executions|Connectors/.test(f))).toBe(false);
  });
});
