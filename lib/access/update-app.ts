// PATCH /admin/v1/apps/{id} {name?, trusted?}: an administrator renames an application or changes
// its trust; its client id and secret stay as they are.
import type { Db } from '../db/client';
import { notFound } from '../errors';
import type { AppUpdate } from '../schemas/access';
import { presentApp } from './present-app';

export async function updateApp(db: Db, id: string, input: AppUpdate) {
  const { count } = await db.app.updateMany({ where: { id }, data: { name: input.name, trusted: input.trusted } });
  if (count === 0) throw notFound('Application not found');
  return presentApp(await db.app.findUniqueOrThrow({ where: { id } }));
}
