import { SqliteDialect, SqliteQueryCompiler, ValueNode } from 'kysely';
import type { LimitNode, OffsetNode, OperationNode, QueryCompiler } from 'kysely';

/**
 * Kysely's SQLite compiler, but a LIMIT or OFFSET given as a value is bound as `cast(? as integer)`, not a bare `?`
 * (issue 10, cpu6). SQLite's planner reads a bare parameter's value in a LIMIT, so binding a new value to it expires the
 * statement, and better-sqlite3 binds every run's values anew: each run of it was parsed and planned again. The card
 * rules' tally (velocity.ts, three distinct counts each bounded by a LIMIT) cost 157 µs a run against 80 µs with its
 * values bound once; an expression's value is read only when the statement runs.
 */
class SqliteBoundLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit ');
    this.#visitCount(node.limit);
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset ');
    this.#visitCount(node.offset);
  }

  #visitCount(node: OperationNode): void {
    if (!ValueNode.is(node)) {
      this.visitNode(node);
      return;
    }
    this.append('cast(');
    this.visitNode(node);
    this.append(' as integer)');
  }
}

export class KassaSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new SqliteBoundLimitCompiler();
  }
}
