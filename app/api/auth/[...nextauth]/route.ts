// next-auth's endpoints (sign-in, sign-out, csrf, session) with options built per request: the
// caller's address and known-device cookie feed the sign-in limits, and a successful sign-in
// marks the browser as known for that account.
import NextAuth from 'next-auth';
import { authOptions, type SignInRequest } from '@/lib/console/server/auth-options';
import { cookieValue, DEVICE_COOKIE, deviceCookie } from '@/lib/console/server/known-device';
import { clientAddress } from '@/lib/http/client-address';

type Ctx = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, ctx: Ctx) {
  const signIn: SignInRequest = {
    address: clientAddress(req.headers),
    deviceCookie: cookieValue(req.headers.get('cookie'), DEVICE_COOKIE),
  };
  const res: Response = await NextAuth(req as never, ctx as never, await authOptions(signIn));
  // Secure exactly when next-auth made its own session cookie secure (an https site).
  const secure = (res.headers.get('set-cookie') ?? '').includes('__Secure-next-auth.session-token');
  if (signIn.signedIn) res.headers.append('Set-Cookie', await deviceCookie(signIn.signedIn, secure));
  return res;
}

export { handler as GET, handler as POST };
