'use client';
// The rename button of an application (admins); its client id and secret stay as they are.
import { RenameButton } from '@/components/ui/RenameButton';
import { useToast } from '@/components/ui/Toaster';
import { useUpdateApp } from '@/lib/console/hooks/apps';
import type { App } from '@/lib/schemas/records';

export function RenameApp({ app }: { app: App }) {
  const toast = useToast();
  const update = useUpdateApp(app.id, { onSuccess: (a) => toast.show(`Application renamed to ${a.name}`, 'success') });
  return (
    <RenameButton
      className="btn btn-small"
      title="Rename application"
      ariaLabel={`Rename application ${app.name}`}
      label="Application name"
      name={app.name}
      rename={(name) => update.mutateAsync({ name })}
    />
  );
}
