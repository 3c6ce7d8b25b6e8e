import { useSyncExternalStore } from 'react';
import { api } from '../api/client.ts';
import type { Account } from '../api/types.ts';

// Who is signed in, shared by the header and the pages; refreshed after sign-in, sign-up and sign-out.
type SessionState = { status: 'loading' } | { status: 'ready'; account: Account | null };

let state: SessionState = { status: 'loading' };
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export async function refreshSession(): Promise<void> {
  try {
    const { account } = await api.session();
    set({ status: 'ready', account });
  } catch {
    set({ status: 'ready', account: null });
  }
}

export function setSignedIn(account: Account | null): void {
  set({ status: 'ready', account });
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      if (state.status === 'loading' && listeners.size === 1) void refreshSession();
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
