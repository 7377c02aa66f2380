// An enrollment as the API shows it.
import type { Enrollment } from '../db/generated/client';
import type { EnrollmentRecord } from '../schemas/access';

export function presentEnrollment(e: Enrollment): EnrollmentRecord {
  return {
    id: e.id,
    app_id: e.appId,
    owner_id: e.ownerId,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    ...(e.data !== null ? { data: e.data } : {}),
    disabled: e.disabled,
    sandbox: e.sandbox,
  };
}
