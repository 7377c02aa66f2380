import { WorkspacePage } from '@/components/workspaces/WorkspacePage';

export const metadata = { title: 'Workspace · Silo' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  return <WorkspacePage id={(await params).id} />;
}
