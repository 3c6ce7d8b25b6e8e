// The proof of work solved ahead of Pay (issue 10): started while the shopper types the card, so Pay does not wait for
// the challenge and its solving. Nothing is weakened: the challenge is the server's, as hard, bound to the shopper's
// session and to the payment action, signed and single use; a solution is only spent earlier than it was made.

export interface SolveAhead {
  /** Starts solving if nothing is solved or being solved (a second call waits for the first). */
  start(): void;
  /** The solution started ahead if it is still good, once; else one solved now. Errors are those of a solve at Pay. */
  take(): Promise<string>;
}

/** `usable`: whether a token solved earlier can still be verified (its challenge not about to expire). */
export function solveAhead(solve: () => Promise<string>, usable: (token: string) => boolean): SolveAhead {
  let ahead: Promise<string> | null = null;
  return {
    start() {
      if (ahead !== null) return;
      const solving = solve();
      ahead = solving;
      // A failed solve ahead is forgotten: the next start (or Pay) solves again, and says why if that fails too.
      solving.catch(() => {
        if (ahead === solving) ahead = null;
      });
    },
    async take() {
      const solving = ahead;
      ahead = null;
      if (solving !== null) {
        const token = await solving.catch(() => null);
        if (token !== null && usable(token)) return token;
      }
      return solve();
    },
  };
}
