'use client';
// The rename button of a workspace (admins), on its page and in the list.
import { RenameButton } from '@/components/ui/RenameButton';
import { useToast } from '@/components/ui/Toaster';
import { useRenameOwner } from '@/lib/console/hooks/owners';
import type { Owner } from '@/lib/schemas/records';

export function RenameWorkspace({ owner, small }: { owner: Owner; small?: boolean }) {
  const toast = useToast();
  const rename = useRenameOwner(owner.id, { onSuccess: (o) => toast.show(`Workspace renamed to ${o.name}`, 'success') });
  return (
    <RenameButton
      className={small ? 'btn btn-small' : 'btn'}
      title="Rename workspace"
      ariaLabel={`Rename workspace ${owner.name}`}
      label="Workspace name"
      name={owner.name}
      rename={(name) => rename.mutateAsync(name)}
    />
  );
}
