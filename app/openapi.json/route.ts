import { openApiDocument } from '@/lib/openapi/document';
import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET } = route({ GET: async () => json(openApiDocument()) });
