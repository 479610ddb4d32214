/** Version and build revision reported by GET /health. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface VersionInfo {
  version: string;
  commit: string;
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

export function resolveVersion(configuredCommit: string | undefined): VersionInfo {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return { version: manifest.version, commit: configuredCommit ?? gitCommit() ?? 'unknown' };
}
