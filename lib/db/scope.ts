// What part of the data a caller may see: the owners (workspaces) and environment. Here, below
// both lib/access (which derives a scope from a principal) and lib/silo (which filters by one),
// so neither imports the other.

/**
 * An auditor's key's period: the versions stored in [start, end) and the records of that time are
 * all it may read (docs/api.md, Auditor keys).
 */
export interface Period {
  start: Date;
  end: Date;
}

/** The owners and environment a caller may read and write. */
export interface Scope {
  owners: string[] | 'all';
  /** undefined: both environments (console users) */
  sandbox?: boolean;
  /** an auditor's key: only what was stored in this period (it writes nothing) */
  period?: Period;
}

/** The one owner and environment a new entry or a list belongs to. */
export interface Target {
  ownerId: string;
  sandbox: boolean;
  /** an auditor's key: lists show only what was stored in this period */
  period?: Period;
}

/** Whether a time (a version's stored_at) falls in a period: start included, end excluded. */
export const inPeriod = (p: Period, at: Date) => at.getTime() >= p.start.getTime() && at.getTime() < p.end.getTime();

/** Whether a scope reaches a workspace: the one check of a member's workspaces. */
export function ownsWorkspace(scope: Scope, ownerId: string): boolean {
  return scope.owners === 'all' || scope.owners.includes(ownerId);
}

/** A Prisma filter on an owner id column for a scope's workspaces; undefined (no filter) for all. */
export function ownerIdFilter(scope: Scope): { in: string[] } | undefined {
  return scope.owners === 'all' ? undefined : { in: scope.owners };
}

export function inScope(scope: Scope, ownerId: string, sandbox: boolean): boolean {
  if (scope.sandbox !== undefined && scope.sandbox !== sandbox) return false;
  return ownsWorkspace(scope, ownerId);
}

/** A Prisma `where` fragment limiting rows with ownerId/sandbox columns to a scope. */
export function scopeWhere(scope: Scope): { ownerId?: { in: string[] }; sandbox?: boolean } {
  const where: { ownerId?: { in: string[] }; sandbox?: boolean } = {};
  const owners = ownerIdFilter(scope);
  if (owners) where.ownerId = owners;
  if (scope.sandbox !== undefined) where.sandbox = scope.sandbox;
  return where;
}
