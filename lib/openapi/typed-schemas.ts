// Every schema of the document names its `type`. zod writes a nullable value as
// `anyOf: [X, {type: 'null'}]` and an unknown one as `{}`: valid JSON Schema, but Scalar's reference
// page (the /docs page) checks each schema against its own stricter model, which wants a `type` (or
// a $ref) on every schema, and reported the records holding such fields (FileRecord, PreviousVersion,
// Enrollment) as invalid. This pass gives them their type without changing what they accept.

type Schema = Record<string, unknown>;

const ANY_JSON = ['object', 'array', 'string', 'number', 'boolean', 'null'];
const COMBINERS = ['anyOf', 'oneOf'] as const;

export function withSchemaTypes<D extends object>(doc: D): D {
  const components = ((doc as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {}) as Record<string, Schema>;
  const typeOf = (s: Schema): string[] | undefined => {
    if (typeof s.$ref === 'string') {
      const target = components[s.$ref.replace('#/components/schemas/', '')];
      return target ? typeOf(target) : undefined;
    }
    if (typeof s.type === 'string') return [s.type];
    if (Array.isArray(s.type)) return s.type as string[];
    return undefined;
  };
  const seen = new Set<object>();
  const visit = (s: Schema) => {
    if (seen.has(s)) return;
    seen.add(s);
    for (const child of children(s)) visit(child);
    if (typeof s.$ref === 'string' || s.type !== undefined) return;
    const combiner = COMBINERS.find((k) => Array.isArray(s[k]));
    if (!combiner) {
      if (s.allOf === undefined && s.const === undefined && s.enum === undefined && s.not === undefined) s.type = ANY_JSON;
      return;
    }
    const branches = s[combiner] as Schema[];
    const nullable = branches.length === 2 && branches.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = nullable === 0 ? branches[1] : nullable === 1 ? branches[0] : undefined;
    if (other && typeof other.type === 'string' && !COMBINERS.some((k) => k in other)) {
      // X or null, X a plain schema: one schema whose type admits null.
      delete s[combiner];
      Object.assign(s, { ...other, ...s, type: [other.type, 'null'] });
      if (Array.isArray(other.enum)) s.enum = [...other.enum, null];
      return;
    }
    const types = branches.map(typeOf);
    if (types.every(Boolean)) {
      const all = [...new Set(types.flat() as string[])];
      s.type = all.length === 1 ? all[0] : all;
    }
  };
  walk(doc, visit);
  return doc;
}

/** The schemas directly inside a schema. */
function children(s: Schema): Schema[] {
  const out: Schema[] = [];
  const add = (v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Schema);
  };
  for (const k of ['items', 'additionalProperties', 'not', 'propertyNames', 'contentSchema']) add(s[k]);
  for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(s[k])) for (const v of s[k] as unknown[]) add(v);
  for (const k of ['properties', 'patternProperties', '$defs'])
    if (s[k] && typeof s[k] === 'object') for (const v of Object.values(s[k] as object)) add(v);
  return out;
}

/** Calls `visit` on every schema the document holds where OpenAPI puts one (components, parameters, bodies, responses, headers). */
function walk(doc: object, visit: (s: Schema) => void) {
  const d = doc as {
    components?: { schemas?: Record<string, Schema> };
    paths?: Record<string, Record<string, unknown>>;
  };
  for (const s of Object.values(d.components?.schemas ?? {})) visit(s);
  const inContent = (content: unknown) => {
    for (const media of Object.values((content ?? {}) as Record<string, { schema?: Schema }>)) if (media.schema) visit(media.schema);
  };
  const inParameters = (ps: unknown) => {
    for (const p of (ps ?? []) as { schema?: Schema; content?: unknown }[]) {
      if (p.schema) visit(p.schema);
      inContent(p.content);
    }
  };
  for (const item of Object.values(d.paths ?? {})) {
    inParameters(item.parameters);
    for (const op of Object.values(item) as { parameters?: unknown; requestBody?: { content?: unknown }; responses?: unknown }[]) {
      if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
      inParameters(op.parameters);
      inContent(op.requestBody?.content);
      for (const r of Object.values(
        (op.responses ?? {}) as Record<string, { content?: unknown; headers?: Record<string, { schema?: Schema }> }>,
      )) {
        inContent(r.content);
        for (const h of Object.values(r.headers ?? {})) if (h.schema) visit(h.schema);
      }
    }
  }
}
