// PATCH /admin/v1/owners/{id} {name}: an administrator renames a workspace; the answer is GET's.
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { appendEvent } from '../events/append-event';
import type { EventActor } from '../events/catalogue';
import { getOwner } from './get-owner';

/** The rename is recorded in both environments' chains: each one's auditor sees the workspace's name change. */
export async function renameOwner(db: Db, id: string, name: string, actor: EventActor) {
  await db.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM owners WHERE id = ${id}::uuid FOR UPDATE`;
    if (!before) throw notFound('Owner not found');
    if (before.name === name) return;
    await tx.owner.update({ where: { id }, data: { name } });
    for (const sandbox of [false, true])
      await appendEvent(tx, {
        type: 'workspace.renamed',
        ownerId: id,
        sandbox,
        actor,
        data: { before: { name: before.name }, after: { name } },
      });
  });
  return getOwner({ db, scope: { owners: 'all' }, id });
}
