// The auditor's export (docs/api.md, Export): its query, the one source of its validation,
// types and OpenAPI.
import { z } from 'zod';
import { day } from './dates';

/** The longest period one export covers, in days (a leap year): larger archives are several exports. */
export const EXPORT_MAX_DAYS = 366;

export const exportQuery = z
  .object({
    from: day('The first day of the period (UTC), inclusive'),
    to: day('The last day of the period (UTC), inclusive'),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    else if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 > EXPORT_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `the period may span at most ${EXPORT_MAX_DAYS} days` });
  });

export type ExportQuery = z.infer<typeof exportQuery>;
