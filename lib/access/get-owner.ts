// GET /admin/v1/owners/{id}: the workspace, its keys (prefixes only) and its storage used, if the scope reaches it.
import type { Db } from '../db/client';
import { ownsWorkspace, type Scope } from '../db/scope';
import { notFound } from '../errors';
import { ownerUsage } from './owner-usage';
import { presentOwner } from './present-owner';

export interface GetOwnerOptions {
  db: Db;
  scope: Scope;
  id: string;
}

export async function getOwner({ db, scope, id }: GetOwnerOptions) {
  const owner = ownsWorkspace(scope, id)
    ? await db.owner.findUnique({ where: { id }, include: { apiKeys: { orderBy: { createdAt: 'asc' } } } })
    : null;
  if (!owner) throw notFound('Owner not found');
  const usage = await ownerUsage(db, [id]);
  return presentOwner(owner, owner.apiKeys, usage.get(id));
}
