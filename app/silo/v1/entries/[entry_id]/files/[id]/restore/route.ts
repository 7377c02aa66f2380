// POST …/files/{id}/restore: that version's bytes become a new current version (contract §4).
import { restoreFileHandler } from '@/lib/http/handlers/files';
import { route } from '@/lib/http/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: restoreFileHandler });
