// PATCH /admin/v1/enrollments/{id} {disabled}: takes effect at once, for issued tokens too.
import { setEnrollmentDisabled } from '@/lib/access/set-enrollment-disabled';
import { adminContext } from '@/lib/http/admin';
import { pathId, readJson } from '@/lib/http/request';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';
import { EnrollmentUpdate } from '@/lib/schemas/access';

export const { PATCH } = route({
  PATCH: async (req, { params }) => {
    const a = await adminContext(req, { members: true });
    const input = await readJson(req, EnrollmentUpdate, 64 * 1024);
    return json(
      await setEnrollmentDisabled({
        db: a.db,
        id: pathId(params.id, 'Enrollment not found'),
        disabled: input.disabled,
        scope: a.scope,
        actor: a.actor,
      }),
    );
  },
});
