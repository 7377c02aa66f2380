// Who is calling, and what part of the data that caller may see (contract §2).

export type Principal =
  /** an owner API key, or an enrollment token acting as its owner */
  | { kind: 'owner'; ownerId: string; sandbox: boolean; via: 'api_key' | 'enrollment' }
  /** a signed-in console user */
  | { kind: 'user'; userId: string; admin: boolean; ownerIds: string[] }
  /** the instance's ADMIN_API_KEY */
  | { kind: 'admin_key' };

/** The owners and environment a caller may read and write. */
export interface Scope {
  owners: string[] | 'all';
  /** undefined: both environments (console users) */
  sandbox?: boolean;
}

/** The one owner and environment a new entry or a list belongs to. */
export interface Target {
  ownerId: string;
  sandbox: boolean;
}

export function scopeOf(p: Principal): Scope {
  if (p.kind === 'owner') return { owners: [p.ownerId], sandbox: p.sandbox };
  if (p.kind === 'user') return { owners: p.admin ? 'all' : p.ownerIds };
  return { owners: 'all' };
}

export function inScope(scope: Scope, ownerId: string, sandbox: boolean): boolean {
  if (scope.sandbox !== undefined && scope.sandbox !== sandbox) return false;
  return scope.owners === 'all' || scope.owners.includes(ownerId);
}

/** A Prisma `where` fragment limiting rows with ownerId/sandbox columns to a scope. */
export function scopeWhere(scope: Scope): { ownerId?: { in: string[] }; sandbox?: boolean } {
  const where: { ownerId?: { in: string[] }; sandbox?: boolean } = {};
  if (scope.owners !== 'all') where.ownerId = { in: scope.owners };
  if (scope.sandbox !== undefined) where.sandbox = scope.sandbox;
  return where;
}
