// For plan tests: a statement's plan as run (EXPLAIN (ANALYZE, FORMAT JSON)), a node of its tree,
// and the tree as a list.
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every node of the tree under `n`, `n` first. */
export const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** Runs `statement` under EXPLAIN (ANALYZE, FORMAT JSON) and answers its plan's top node (both databases). */
export async function explainAnalyzed(db: Tx, statement: Prisma.Sql): Promise<PlanNode> {
  const [row] = await db.$queryRaw<{ 'QUERY PLAN': unknown }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const json = row['QUERY PLAN'];
  // PostgreSQL answers json, which the driver parses; the embedded database, its text
  return ((typeof json === 'string' ? JSON.parse(json) : json) as { Plan: PlanNode }[])[0].Plan;
}
