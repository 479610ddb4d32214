import { describe, expect, it } from 'vitest';
import { groupCommit } from '../group-commit.js';

/** A fake multi-row insert whose statements are committed (resolved) by the test, one at a time. */
function fakeTable() {
  const committed: number[] = [];
  const statements: Array<{ rows: number[]; commit(): void; fail(error: Error): void }> = [];
  const insertMany = (rows: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      statements.push({
        rows,
        commit: () => {
          committed.push(...rows);
          resolve(rows.map((r) => `id-${r}`));
        },
        fail: reject,
      });
    });
  return { committed, statements, insertMany };
}

const tick = () => new Promise((r) => setImmediate(r));
const sqlError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });

describe('groupCommit', () => {
  it('50 concurrent rows share few statements; each resolves only once the statement holding it committed', async () => {
    const table = fakeTable();
    const { insert } = groupCommit(table.insertMany, { inFlight: 2 });
    const answered: number[] = [];
    const all = Array.from({ length: 50 }, (_, i) =>
      insert(i).then((id) => {
        // answered only once committed
        expect(table.committed).toContain(i);
        answered.push(i);
        return id;
      }),
    );
    await tick();
    // two statements in flight (the first rows), the rest waiting for the next one
    expect(table.statements.map((s) => s.rows.length)).toEqual([1, 1]);
    expect(answered).toEqual([]);
    table.statements[0]!.commit();
    await tick();
    expect(answered).toEqual([0]);
    expect(table.statements).toHaveLength(3);
    expect(table.statements[2]!.rows).toHaveLength(48);
    table.statements[2]!.commit();
    await tick();
    expect(answered).toHaveLength(49);
    expect(answered).not.toContain(1);
    table.statements[1]!.commit();
    const ids = await Promise.all(all);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `id-${i}`));
    // every row exactly once
    expect([...table.committed].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(table.statements).toHaveLength(3);
  });

  it('a statement lost with its connection rejects every row of its group (none answered, none inserted twice)', async () => {
    const table = fakeTable();
    const { insert } = groupCommit(table.insertMany, { inFlight: 1 });
    const first = insert(0);
    const group = Array.from({ length: 10 }, (_, i) => insert(i + 1));
    await tick();
    table.statements[0]!.commit();
    await first;
    await tick();
    expect(table.statements[1]!.rows).toHaveLength(10);
    table.statements[1]!.fail(new Error('Connection terminated unexpectedly'));
    const outcomes = await Promise.allSettled(group);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(table.statements).toHaveLength(2); // not tried again: it may have committed
    // the next rows go on
    const after = insert(99);
    await tick();
    table.statements[2]!.commit();
    expect(await after).toBe('id-99');
  });

  it('a statement PostgreSQL refused is tried row by row: only the bad row fails', async () => {
    const calls: number[][] = [];
    const { insert } = groupCommit(
      async (rows: number[]) => {
        calls.push(rows);
        if (rows.includes(3)) throw sqlError('23503'); // foreign key: its inbox was deleted
        return rows.map((r) => `id-${r}`);
      },
      { inFlight: 1 },
    );
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => insert(i)));
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' });
    // the group [1..5] failed as a whole, then each of its rows alone
    expect(calls).toEqual([[0], [1, 2, 3, 4, 5], [1], [2], [3], [4], [5]]);
  });
});
