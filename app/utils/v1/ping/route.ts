import { json } from '@/lib/http/respond';
import { route } from '@/lib/http/route';

export const { GET } = route({
  GET: async () => json({ ping: 'pong' }),
});
