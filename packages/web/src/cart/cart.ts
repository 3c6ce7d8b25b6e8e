import { useSyncExternalStore } from 'react';

// The cart lives in the browser until checkout: the server prices it only when it becomes an order.
export interface CartLine {
  productId: string;
  quantity: number;
}

const storageKey = 'kassa.cart';
const listeners = new Set<() => void>();
let lines: CartLine[] = read();

function read(): CartLine[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isCartLine) : [];
  } catch {
    return [];
  }
}

function isCartLine(value: unknown): value is CartLine {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return typeof line.productId === 'string' && Number.isInteger(line.quantity) && Number(line.quantity) > 0;
}

function write(next: CartLine[]): void {
  lines = next;
  window.localStorage.setItem(storageKey, JSON.stringify(next));
  for (const listener of listeners) listener();
}

export const cart = {
  add(productId: string): void {
    const existing = lines.find((line) => line.productId === productId);
    write(
      existing
        ? lines.map((line) => (line === existing ? { ...line, quantity: line.quantity + 1 } : line))
        : [...lines, { productId, quantity: 1 }],
    );
  },
  setQuantity(productId: string, quantity: number): void {
    write(
      quantity > 0
        ? lines.map((line) => (line.productId === productId ? { ...line, quantity } : line))
        : lines.filter((line) => line.productId !== productId),
    );
  },
  clear(): void {
    write([]);
  },
};

export function useCart(): CartLine[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => lines,
    () => [],
  );
}
