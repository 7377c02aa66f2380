import { WorkspaceList } from '@/components/workspaces/WorkspaceList';

export const metadata = { title: 'Workspaces · Silo' };

export default function WorkspacesPage() {
  return <WorkspaceList />;
}
