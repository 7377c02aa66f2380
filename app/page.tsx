// The home page is the console: signed-in users go to their workspaces, everyone else signs in.
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/console/server/current-user';

export const dynamic = 'force-dynamic';

export default async function Home() {
  redirect((await currentUser()) ? '/workspaces' : '/signin');
}
