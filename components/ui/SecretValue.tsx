// A secret shown once: its label, the value and a copy button.
import { CopyButton } from './CopyButton';

export function SecretValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret">
      <span className="secret-label">{label}</span>
      <code className="secret-value" data-testid="secret-value">
        {value}
      </code>
      <CopyButton value={value} />
    </div>
  );
}
