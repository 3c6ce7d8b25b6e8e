import { describe, expect, it } from 'vitest';
import { solveAhead } from './solve-ahead.ts';

// The hand-over logic alone: the solver is a stand-in counting its solves (e2e/tests/botcheck/proof-of-work.spec.ts
// solves the server's real challenges in Chromium's workers).

function counting(outcomes: Array<string | Error> = []) {
  const solves: number[] = [];
  const solve = () => {
    solves.push(solves.length + 1);
    const outcome = outcomes.shift() ?? `token-${solves.length}`;
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
  };
  return { solve, solves };
}

describe('solveAhead', () => {
  it('hands the token solved ahead to Pay once; the next Pay solves a new one', async () => {
    const solver = counting();
    const ahead = solveAhead(solver.solve, () => true);
    ahead.start();
    ahead.start();
    expect(solver.solves).toHaveLength(1);
    await expect(ahead.take()).resolves.toBe('token-1');
    await expect(ahead.take()).resolves.toBe('token-2');
    expect(solver.solves).toHaveLength(2);
  });

  it('solves at Pay when nothing was started ahead', async () => {
    const solver = counting();
    await expect(solveAhead(solver.solve, () => true).take()).resolves.toBe('token-1');
  });

  it('solves again at Pay when the token solved ahead is no longer usable (its challenge about to expire)', async () => {
    const solver = counting();
    const ahead = solveAhead(solver.solve, (token) => token !== 'token-1');
    ahead.start();
    await expect(ahead.take()).resolves.toBe('token-2');
  });

  it('forgets a solve ahead that failed: Pay solves again, and its own failure is what the shopper is told', async () => {
    const refused = new Error('botcheck_unavailable');
    const solver = counting([new Error('first'), refused]);
    const ahead = solveAhead(solver.solve, () => true);
    ahead.start();
    await expect(ahead.take()).rejects.toBe(refused);
    expect(solver.solves).toHaveLength(2);
  });
});
