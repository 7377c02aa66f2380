// UUIDs, without zod: the console's browser code checks ids with these too.

/** A UUID as we write and store them: lowercase. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The same in either case. */
export const ANY_CASE_UUID = new RegExp(UUID.source, 'i');

/** Ids from callers (paths, bodies, queries) may be in either case; they are lowercased after. */
export const isUuid = (s: string) => ANY_CASE_UUID.test(s);
