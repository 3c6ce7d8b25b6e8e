import type { Problem } from '../api/types.ts';
import { messages, problemMessage } from '../i18n/messages.ts';

/** Whether the same load may answer another time: nothing came back (a network error, a deadline), or the server could not answer now. */
export function worthRetrying(problem: Problem): boolean {
  return problem.status === 0 || problem.status === 429 || problem.status >= 500;
}

/**
 * A page's data that did not come: what went wrong and, when another try may answer, Try again (a request the network
 * held ends at its deadline, api/client.ts: the page says so instead of "Loading…" for good). `describe`: the words
 * for the problem (the dashboard has its own, i18n/admin-messages.ts).
 */
export function LoadFailed({
  problem,
  retry,
  describe = problemMessage,
}: {
  problem: Problem;
  retry(): void;
  describe?: (problem: Problem) => string;
}) {
  return (
    <div className="load-failed">
      <p role="alert">{describe(problem)}</p>
      {worthRetrying(problem) && (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            // The button goes with the message: focus moves to the page's main region, as after a navigation
            // (layout.tsx), not to the body.
            document.getElementById('main')?.focus();
            retry();
          }}
        >
          {messages.tryAgain}
        </button>
      )}
    </div>
  );
}
