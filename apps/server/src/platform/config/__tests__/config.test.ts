import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ADMIN_PASSWORD, ConfigError, listEntries, loadConfig } from '../index.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.http.port).toBe(8080);
    expect(config.http.trustProxy).toBe(false);
    expect(config.dataDir).toBe('./data');
    expect(config.db.url).toBeUndefined();
    expect(config.redis.url).toBeUndefined();
    expect(config.rateLimit).toEqual({ perMinute: 100, loginPerMinute: 10 });
    expect(config.auth.jwtAlgorithm).toBe('HS256');
    expect(config.auth.accessTokenTtlMinutes).toBe(15);
    expect(config.auth.refreshTokenTtlDays).toBe(7);
    expect(config.auth.bcryptRounds).toBe(12);
  });

  it.each([
    ['SVC_PORT', 'eighty', /SVC_PORT: expected an integer/],
    ['SVC_PORT', '70000', /SVC_PORT: must be at most 65535/],
    ['SVC_ENV', 'staging', /SVC_ENV: expected one of development, production/],
    ['SVC_TRUST_PROXY', 'maybe', /SVC_TRUST_PROXY: expected true\/false/],
    ['SVC_DATABASE_URL', 'mysql://x@y/z', /SVC_DATABASE_URL: expected a URL starting with postgres:/],
    ['SVC_REDIS_URL', 'not a url', /SVC_REDIS_URL: not a valid URL/],
    ['SVC_JWT_ALGORITHM', 'none', /SVC_JWT_ALGORITHM: expected one of HS256, HS384, HS512/],
    ['SVC_RATE_LIMIT_PER_MINUTE', '0', /SVC_RATE_LIMIT_PER_MINUTE: must be at least 1/],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('never echoes a URL that may hold a password', () => {
    const problems = problemsOf({ SVC_DATABASE_URL: 'mysql://user:hunter2secret@db/x' });
    expect(problems.join()).not.toContain('hunter2secret');
  });

  it('reports every bad variable at once', () => {
    expect(problemsOf({ SVC_PORT: 'x', SVC_LOG_LEVEL: 'loud' })).toHaveLength(2);
  });

  it('refuses in production a short JWT secret and the built-in admin password', () => {
    const problems = problemsOf({ SVC_ENV: 'production', SVC_JWT_SECRET: 'short' });
    expect(problems.join('\n')).toMatch(/SVC_JWT_SECRET: must be set to at least 32 characters/);
    expect(problems.join('\n')).toMatch(/SVC_INITIAL_ADMIN_PASSWORD: the built-in default/);
    expect(problems.join('\n')).toMatch(/SVC_ENCRYPTION_KEY: must be set in production/);
    expect(
      problemsOf({
        SVC_ENV: 'production',
        SVC_JWT_SECRET: 'x'.repeat(32),
        SVC_INITIAL_ADMIN_PASSWORD: 'a-proper-secret-password',
        SVC_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      }),
    ).toEqual([]);
    expect(problemsOf({ SVC_INITIAL_ADMIN_PASSWORD: BUILT_IN_ADMIN_PASSWORD })).toEqual([]);
  });

  it('documents every variable in docs/configuration.md', () => {
    const doc = readFileSync(new URL('../../../../../../docs/configuration.md', import.meta.url), 'utf8');
    for (const { entry } of listEntries()) expect(doc, entry.env).toContain(`\`${entry.env}\``);
  });
});
