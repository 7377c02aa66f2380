// next-auth's endpoints (sign-in, sign-out, csrf, session) with options built per request.
import NextAuth from 'next-auth';
import { authOptions } from '@/lib/console/server/auth-options';

type Ctx = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, ctx: Ctx) {
  return NextAuth(req as never, ctx as never, await authOptions());
}

export { handler as GET, handler as POST };
