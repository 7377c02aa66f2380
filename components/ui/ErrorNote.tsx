// An inline failure: the API's own message (ApiFailure carries the contract's `message`).
import { errorMessage } from '@/lib/console/api';

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error-note" role="alert">
      {errorMessage(error)}
    </p>
  );
}
