import { describe, expect, it } from 'vitest';
import { ROOT } from './processes.ts';
import { partsOfProfile } from './profile-parts.ts';
import type { CpuProfile } from './profile-parts.ts';

const own = (path: string) => `file://${ROOT}/packages/server/src/${path}`;
const dep = (path: string) => `file://${ROOT}/node_modules/${path}`;

/** A profile from stacks written root first, each with its hit count (the tree V8 writes, built from them). */
function profileOf(stacks: Array<{ frames: Array<[string, string]>; hits: number }>): CpuProfile {
  const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] }];
  for (const { frames, hits } of stacks) {
    let parent = nodes[0];
    for (const [functionName, url] of frames) {
      const found = parent?.children
        ?.map((id) => nodes.find((node) => node.id === id))
        .find((node) => node?.callFrame.functionName === functionName && node.callFrame.url === url);
      if (found !== undefined) {
        parent = found;
        continue;
      }
      const node = { id: nodes.length + 1, callFrame: { functionName, url }, children: [] as number[] };
      parent?.children?.push(node.id);
      nodes.push(node);
      parent = node;
    }
    if (parent !== undefined) parent.hitCount = (parent.hitCount ?? 0) + hits;
  }
  return { nodes };
}

describe('partsOfProfile', () => {
  it("gives each busy sample to the part of our innermost file outside db/, by its leaf's kind, and the statements to their callers", () => {
    const profile = profileOf([
      { frames: [['(idle)', '']], hits: 50 },
      // A velocity statement: run through db/, better-sqlite3's native run at the leaf.
      {
        frames: [
          ['recordCounts', own('velocity/velocity.ts')],
          ['execute', own('db/prepared.ts')],
          ['runAtOnce', own('db/sqlite-at-once.ts')],
          ['run', ''],
        ],
        hits: 7,
      },
      {
        frames: [
          ['recordCounts', own('velocity/velocity.ts')],
          ['execute', own('db/prepared.ts')],
        ],
        hits: 2,
      },
      // The session's HMAC.
      {
        frames: [
          ['findByToken', own('accounts/sessions.repository.ts')],
          ['digest', 'node:internal/crypto/hash'],
        ],
        hits: 3,
      },
      // The SDK's XML, under our sale; and its answer resumed with no caller of ours.
      {
        frames: [
          ['sale', own('gateway/braintree.ts')],
          ['parse', dep('xml2js/lib/parser.js')],
        ],
        hits: 5,
      },
      {
        frames: [
          ['onread', 'node:net'],
          ['write', dep('sax/lib/sax.js')],
        ],
        hits: 4,
      },
      // Fastify's own work with no caller of ours, a COMMIT resumed in db/ alone, and the collector.
      { frames: [['route', dep('find-my-way/index.js')]], hits: 2 },
      {
        frames: [
          ['transaction', own('db/sqlite-at-once.ts')],
          ['run', ''],
        ],
        hits: 6,
      },
      { frames: [['(garbage collector)', '']], hits: 1 },
    ]);
    const breakdown = partsOfProfile(profile);
    expect(breakdown.busySamples).toBe(30);
    expect(breakdown.parts).toEqual([
      { part: 'velocity rules', samples: 9, byKind: { SQLite: 7, 'own JS': 2 } },
      { part: 'database layer (no caller of ours above it)', samples: 6, byKind: { SQLite: 6 } },
      { part: 'SDK: sale', samples: 5, byKind: { 'SDK JS': 5 } },
      { part: 'SDK: its answers (no caller of ours)', samples: 4, byKind: { 'SDK JS': 4 } },
      { part: 'session look-up', samples: 3, byKind: { crypto: 3 } },
      { part: 'Fastify (routing, hooks, inject) outside our calls', samples: 2, byKind: { Fastify: 2 } },
      { part: 'garbage collector', samples: 1, byKind: { GC: 1 } },
    ]);
    expect(breakdown.statements).toEqual([
      { caller: 'recordCounts velocity/velocity.ts', samples: 9, sqlite: 7 },
      { caller: 'transaction db/sqlite-at-once.ts', samples: 6, sqlite: 6 },
    ]);
  });
});
