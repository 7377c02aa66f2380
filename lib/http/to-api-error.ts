// What a thrown error means for the caller: an ApiError as it is, a full or failing blob store as
// 507/503, a database with no connection free in time as 503 `busy` and one that cannot be reached
// as 503 `database_unavailable` (the server's problem, not a bug), anything else as 500 `internal`,
// logged.
import { isDatabaseBusy, isDatabaseUnreachable, isEntryGone } from '../db/db-errors';
import { ApiError, isApiError } from '../errors';
import { log } from '../log';
import { storeFailure } from '../storage/blob-store';

/** Seconds a client is asked to wait before it sends a request refused as busy again. */
const BUSY_RETRY_AFTER = 2;

/** Seconds a client is asked to wait after the database could not be reached (a restart takes a few). */
const UNAVAILABLE_RETRY_AFTER = 5;

/** Turns anything thrown into an ApiError; unknown errors become `internal` and are logged. */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (isApiError(err)) return err;
  // A full or failing blob store is the server's problem, not a bug: a status the client can
  // act on (retry later), and the operator finds the cause in the log.
  const failure = storeFailure(err);
  if (failure) {
    log.error({ request_id: requestId, storage: failure, error: String((err as Error)?.message ?? err) }, 'blob store failure');
    return failure === 'full'
      ? new ApiError('insufficient_storage', `The file store is full; nothing was stored. Try again later (request id ${requestId})`)
      : new ApiError('storage_unavailable', `The file store is unavailable; try again later (request id ${requestId})`);
  }
  // A write whose entry a racing delete removed: nothing of it is stored (the statement failed whole).
  if (isEntryGone(err)) return new ApiError('not_found', 'Entry not found');
  if (isDatabaseBusy(err)) {
    log.warn({ request_id: requestId, error: String((err as Error)?.message ?? err) }, 'database busy: no connection free in time');
    return new ApiError('busy', `The server is busy; try again in ${BUSY_RETRY_AFTER} seconds (request id ${requestId})`, {
      headers: { 'Retry-After': String(BUSY_RETRY_AFTER) },
    });
  }
  if (isDatabaseUnreachable(err)) {
    log.error({ request_id: requestId, error: String((err as Error)?.message ?? err) }, 'database unavailable');
    return new ApiError(
      'database_unavailable',
      `The database is unavailable; try again in ${UNAVAILABLE_RETRY_AFTER} seconds (request id ${requestId})`,
      { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER) } },
    );
  }
  log.error({ err, request_id: requestId }, 'internal error');
  return new ApiError('internal', `Internal error; request id ${requestId}`);
}
