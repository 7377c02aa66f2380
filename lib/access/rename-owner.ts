// PATCH /admin/v1/owners/{id} {name}: an administrator renames a workspace; the answer is GET's.
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { getOwner } from './get-owner';

export async function renameOwner(db: Db, id: string, name: string) {
  const { count } = await db.owner.updateMany({ where: { id }, data: { name } });
  if (count === 0) throw notFound('Owner not found');
  return getOwner({ db, scope: { owners: 'all' }, id });
}
