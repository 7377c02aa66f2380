// GET/POST /silo/v1/retention-rules, DELETE …/{id} (docs/api.md, Retention): a workspace's rules,
// per environment like its entries. A rule applies to versions stored after it exists (the
// database's trigger reads them, prisma/sql/retention.sql); `applyToExisting` also extends the matching
// versions stored before, never shortening one.
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import { Prisma, type RetentionRule } from '../../db/generated/client';
import type { Target } from '../../db/scope';
import { notFound } from '../../errors';
import { appendEvent } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import type { RetentionRuleInput, RetentionRuleRecord } from '../../schemas/retention';
import type { BlobStore } from '../../storage/blob-store';
import { lockBlobs } from './blob-locks';

export function presentRule(r: RetentionRule): RetentionRuleRecord {
  return {
    id: r.id,
    ...(r.category !== null ? { category: r.category as 'format' | 'attachment' } : {}),
    ...(r.folder !== null ? { folder: r.folder } : {}),
    years: r.years,
    days: r.days,
    from: r.from as RetentionRuleRecord['from'],
    mode: r.mode as RetentionRuleRecord['mode'],
    created_at: r.createdAt.toISOString(),
  };
}

export async function listRetentionRules(db: Db, target: Target): Promise<{ list: RetentionRuleRecord[] }> {
  const rules = await db.retentionRule.findMany({ where: target, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return { list: rules.map(presentRule) };
}

export interface CreateRuleOptions {
  db: Db;
  store: BlobStore;
  target: Target;
  input: RetentionRuleInput;
  applyToExisting: boolean;
  actor: EventActor | null;
}

/** The rule, and how many stored versions it extended (applyToExisting). */
export async function createRetentionRule(o: CreateRuleOptions): Promise<{ rule: RetentionRuleRecord; applied: number }> {
  const { db, target, input } = o;
  const { rule, hashes } = await db.$transaction(async (tx) => {
    const made = await tx.retentionRule.create({
      data: {
        id: randomUUID(),
        ...target,
        category: input.category ?? null,
        folder: input.folder || null,
        years: input.years,
        days: input.days,
        from: input.from,
        mode: input.mode,
      },
    });
    const hashes = o.applyToExisting ? await applyToExisting(tx, made) : [];
    const rule = presentRule(made);
    await appendEvent(tx, {
      type: 'retention_rule.created',
      ...target,
      actor: eventActorFor(o.actor),
      data: { ...ruleData(rule), ...(o.applyToExisting ? { applied: hashes.length } : {}) },
    });
    return { rule, hashes };
  });
  await lockBlobs(db, o.store, hashes);
  return { rule, applied: hashes.length };
}

/** What a rule's events say of it: the rule as the API shows it, without its time. */
const ruleData = ({ created_at: _, ...rule }: RetentionRuleRecord) => rule;

/**
 * Extends the stored versions `rule` covers to the date it gives them (from their own store
 * time), compliance when it is. Slots are locked first, in one order, as every write of files
 * locks them (lock-slot.ts); the versions' hashes, one per version changed.
 */
async function applyToExisting(tx: Tx, rule: RetentionRule): Promise<string[]> {
  await tx.$queryRaw`
    SELECT 1 FROM file_slots s JOIN entries e ON e.id = s.entry_id
    WHERE e.owner_id = ${rule.ownerId}::uuid AND e.sandbox = ${rule.sandbox} AND "silo_folder_covers"(${rule.folder}, e.folder)
    ORDER BY s.id FOR NO KEY UPDATE OF s`;
  const until = Prisma.sql`"silo_retention_date"(${rule.from}, ${rule.years}::int, ${rule.days}::int, f.stored_at)`;
  const rows = await tx.$queryRaw<{ hash: string }[]>`
    UPDATE files f SET
      retain_until = greatest(f.retain_until, ${until}),
      retention_mode = CASE WHEN ${rule.mode} = 'compliance' OR f.retention_mode = 'compliance' THEN 'compliance' ELSE 'governance' END
    FROM entries e
    WHERE f.entry_id = e.id AND e.owner_id = ${rule.ownerId}::uuid AND e.sandbox = ${rule.sandbox} AND f.stored
      AND (${rule.category}::text IS NULL OR f.category = ${rule.category}) AND "silo_folder_covers"(${rule.folder}, e.folder)
      AND (f.retain_until IS NULL OR f.retain_until < ${until} OR (${rule.mode} = 'compliance' AND f.retention_mode <> 'compliance'))
    RETURNING f.hash`;
  return rows.map((r) => r.hash);
}

export async function deleteRetentionRule(db: Db, target: Target, id: string, actor: EventActor | null): Promise<void> {
  await db.$transaction(async (tx) => {
    const [gone] = await tx.$queryRaw<RetentionRule[]>`
      DELETE FROM retention_rules WHERE id = ${id}::uuid AND owner_id = ${target.ownerId}::uuid AND sandbox = ${target.sandbox}
      RETURNING id::text, category, folder, years, days, "from", mode, created_at AS "createdAt"`;
    if (!gone) throw notFound('Retention rule not found');
    await appendEvent(tx, {
      type: 'retention_rule.deleted',
      ...target,
      actor: eventActorFor(actor),
      data: ruleData(presentRule(gone)),
    });
  });
}
