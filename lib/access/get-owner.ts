// GET /admin/v1/owners/{id}: the workspace and its keys (prefixes only), if the scope reaches it.
import type { Db } from '../db/client';
import { ownsWorkspace, type Scope } from '../db/scope';
import { notFound } from '../errors';
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
  return presentOwner(owner, owner.apiKeys);
}
