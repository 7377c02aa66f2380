import { AppList } from '@/components/apps/AppList';

export const metadata = { title: 'Applications · Silo' };

export default function AppsPage() {
  return <AppList />;
}
