'use client';
// A filter form's environment field: live or sandbox (the entry list's and the Activity tab's).

interface Props {
  /** the select's id, which its label names */
  id: string;
  sandbox: boolean;
  onChange(sandbox: boolean): void;
}

export function EnvironmentSelect({ id, sandbox, onChange }: Props) {
  return (
    <div className="field" style={{ flex: '0 0 140px' }}>
      <label htmlFor={id}>Environment</label>
      <select id={id} value={sandbox ? 'sandbox' : 'live'} onChange={(e) => onChange(e.target.value === 'sandbox')}>
        <option value="live">Live</option>
        <option value="sandbox">Sandbox</option>
      </select>
    </div>
  );
}
