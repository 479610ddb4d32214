/** Version and build revision reported by GET /health. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface VersionInfo {
  version: string;
  commit: string;
}

function gitCommit(): string | undefined {
  try {
    // Asked where the program lives, not where it was started from.
    const here = fileURLToPath(new URL('.', import.meta.url));
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

export function resolveVersion(configuredCommit: string | undefined): VersionInfo {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return { version: manifest.version, commit: configuredCommit ?? gitCommit() ?? 'unknown' };
}
