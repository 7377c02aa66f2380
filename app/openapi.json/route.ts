import { openApiDocument } from '@/lib/http/openapi';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: async () => json(openApiDocument()) });
