import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `development` export condition).
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'], externalConditions: ['development'] } },
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/*/src/**/__tests__/**/*.test.ts', 'packages/*/src/**/__tests__/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'apps/*/src/**/__tests__/**/*.integration.test.ts',
            'apps/*/test/**/*.integration.test.ts',
            'packages/*/src/**/__tests__/**/*.integration.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
