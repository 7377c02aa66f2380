import { EntryPage } from '@/components/entries/EntryPage';

export const metadata = { title: 'Entry · Silo' };

export default async function Page({ params }: { params: Promise<{ id: string; entryId: string }> }) {
  const { id, entryId } = await params;
  return <EntryPage ownerId={id} entryId={entryId} />;
}
