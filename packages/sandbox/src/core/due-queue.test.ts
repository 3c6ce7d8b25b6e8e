import { describe, expect, it } from 'vitest';
import { DueQueue } from './due-queue.ts';
import type { DueRecord } from './due-queue.ts';
import { createMemoryStore } from '../store/memory-store.ts';

describe('DueQueue', () => {
  it('hands out what is due, earliest first, and keeps the rest', () => {
    const queue = new DueQueue<DueRecord>(createMemoryStore(), 'due');
    for (const [id, dueAt] of [
      ['c', 30],
      ['a', 10],
      ['d', 40],
      ['b', 20],
    ] as const)
      queue.schedule({ id, dueAt });
    expect(queue.takeDue(25).map((record) => record.id)).toEqual(['a', 'b']);
    expect(queue.nextDueAt()).toBe(30);
    expect(queue.takeDue(100).map((record) => record.id)).toEqual(['c', 'd']);
    expect(queue.nextDueAt()).toBeNull();
  });

  it('skips cancelled records and moves rescheduled ones to their new time', () => {
    const queue = new DueQueue<DueRecord>(createMemoryStore(), 'due');
    queue.schedule({ id: 'a', dueAt: 10 });
    queue.schedule({ id: 'b', dueAt: 20 });
    queue.cancel('a');
    queue.schedule({ id: 'b', dueAt: 50 });
    expect(queue.takeDue(30)).toEqual([]);
    expect(queue.takeDue(50)).toEqual([{ id: 'b', dueAt: 50 }]);
  });

  it('hands out a large batch a part at a time, earliest first, until nothing is due', () => {
    const queue = new DueQueue<DueRecord>(createMemoryStore(), 'due');
    for (let index = 0; index < 1200; index += 1) queue.schedule({ id: `r${index}`, dueAt: 1200 - index });
    const parts: number[] = [];
    const taken: number[] = [];
    for (let due = queue.takeDue(2000); due.length > 0; due = queue.takeDue(2000)) {
      parts.push(due.length);
      taken.push(...due.map((record) => record.dueAt));
    }
    expect(parts).toEqual([500, 500, 200]);
    expect(taken).toEqual(Array.from({ length: 1200 }, (_, index) => index + 1));
  });

  it('hands out ids and due times from the index without reading a record, and removes them', () => {
    const store = createMemoryStore({ cachedRecords: 0 });
    const queue = new DueQueue<DueRecord>(store, 'due');
    for (let index = 0; index < 600; index += 1) queue.schedule({ id: `r${index}`, dueAt: index });
    store.flush();
    const ids = queue.takeDueIds(1000);
    expect(ids).toHaveLength(500);
    expect(ids.slice(0, 2)).toEqual([
      { id: 'r0', dueAt: 0 },
      { id: 'r1', dueAt: 1 },
    ]);
    expect(store.recordsRead).toBe(0);
    expect(queue.has('r0')).toBe(false);
    // takeDue reads what it answers: the 100 left.
    expect(queue.takeDue(1000)).toHaveLength(100);
    expect(store.recordsRead).toBe(100);
    expect(queue.nextDueAt()).toBeNull();
  });

  it('finds its records again from the store (a restart)', () => {
    const store = createMemoryStore();
    const first = new DueQueue<DueRecord>(store, 'due');
    for (let index = 0; index < 100; index += 1) first.schedule({ id: `r${index}`, dueAt: (index * 37) % 101 });
    const second = new DueQueue<DueRecord>(store, 'due');
    const due = second.takeDue(1000).map((record) => record.dueAt);
    expect(due).toEqual([...due].sort((a, b) => a - b));
    expect(due).toHaveLength(100);
  });
});

describe('DueQueue ties', () => {
  it('hands out records due at the same instant in the order they were scheduled', () => {
    const queue = new DueQueue<DueRecord>(createMemoryStore(), 'due');
    const ids = Array.from({ length: 20 }, (_, index) => `r${index}`);
    for (const id of ids) queue.schedule({ id, dueAt: 5 });
    expect(queue.takeDue(5).map((record) => record.id)).toEqual(ids);
  });
});
