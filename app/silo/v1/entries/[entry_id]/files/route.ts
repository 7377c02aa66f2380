// GET (current files with their history) and POST (service id) — seed §4.2, contract §4.
import { createFileHandler, listFilesHandler } from '@/lib/http/handlers/files';
import { route } from '@/lib/http/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: listFilesHandler,
  POST: createFileHandler,
});
