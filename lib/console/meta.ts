// `meta` edited as "key = value" lines: easier to type than JSON, and it maps one to one.
export function metaToText(meta: Record<string, string> | undefined): string {
  return Object.entries(meta ?? {})
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

export function textToMeta(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const i = line.indexOf('=');
    if (i < 1) throw new Error(`Write meta as "key = value" lines ("${line.trim()}" has no key)`);
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}
