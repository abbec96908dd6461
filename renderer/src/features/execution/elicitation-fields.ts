/**
 * The form an MCP elicitation asks for, read from its `requestedSchema` (MCP 2025-06-18 and
 * 2025-11-25, "elicitation/create": a flat object of primitive properties): text (with
 * `format` email / uri / date / date-time and length limits), number and integer (with
 * bounds), boolean, single choice (`enum`, `enum` + `enumNames`, or `oneOf` of `{ const, title }`)
 * and multiple choice (an array whose `items` has `enum` or `anyOf` of `{ const, title }`).
 * A property of any other shape becomes a `json` field, typed as JSON.
 */

export interface ChoiceOption {
  value: string;
  label: string;
}

export interface ElicitationField {
  key: string;
  kind: 'text' | 'number' | 'boolean' | 'choice' | 'choices' | 'json';
  label: string;
  description?: string;
  required: boolean;
  /** text: `email`, `uri`, `date`, `date-time`. */
  format?: string;
  integer?: boolean;
  min?: number;
  max?: number;
  options?: ChoiceOption[];
  default?: unknown;
}

type Prop = Record<string, unknown>;

const isObj = (v: unknown): v is Prop => !!v && typeof v === 'object' && !Array.isArray(v);

function constOptions(list: unknown): ChoiceOption[] | undefined {
  if (!Array.isArray(list) || !list.every((o) => isObj(o) && typeof o.const === 'string')) return undefined;
  return (list as Prop[]).map((o) => ({ value: o.const as string, label: typeof o.title === 'string' ? o.title : (o.const as string) }));
}

function enumOptions(p: Prop): ChoiceOption[] | undefined {
  if (!Array.isArray(p.enum) || !p.enum.every((v) => typeof v === 'string')) return undefined;
  const names = Array.isArray(p.enumNames) ? p.enumNames : [];
  return (p.enum as string[]).map((v, i) => ({ value: v, label: typeof names[i] === 'string' ? (names[i] as string) : v }));
}

/** The fields of `schema`, in property order. */
export function elicitationFields(schema: unknown): ElicitationField[] {
  const s = isObj(schema) ? schema : {};
  const props = isObj(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(props).map(([key, raw]) => {
    const p = isObj(raw) ? raw : {};
    const base = {
      key,
      label: typeof p.title === 'string' ? p.title : key,
      required: required.has(key),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
    const single = p.type === 'string' ? (constOptions(p.oneOf) ?? enumOptions(p)) : undefined;
    if (single) return { ...base, kind: 'choice', options: single };
    if (p.type === 'string') return { ...base, kind: 'text', ...(typeof p.format === 'string' ? { format: p.format } : {}), ...bounds(p, 'minLength', 'maxLength') };
    if (p.type === 'number' || p.type === 'integer') return { ...base, kind: 'number', integer: p.type === 'integer', ...bounds(p, 'minimum', 'maximum') };
    if (p.type === 'boolean') return { ...base, kind: 'boolean' };
    if (p.type === 'array' && isObj(p.items)) {
      const multi = constOptions(p.items.anyOf) ?? enumOptions(p.items);
      if (multi) return { ...base, kind: 'choices', options: multi, ...bounds(p, 'minItems', 'maxItems') };
    }
    return { ...base, kind: 'json' };
  });
}

function bounds(p: Prop, lo: string, hi: string): { min?: number; max?: number } {
  return { ...(typeof p[lo] === 'number' ? { min: p[lo] as number } : {}), ...(typeof p[hi] === 'number' ? { max: p[hi] as number } : {}) };
}

/** The value a field starts with: its default, else empty (booleans false, choices none). */
export function initialValue(f: ElicitationField): unknown {
  if (f.default !== undefined) return f.default;
  if (f.kind === 'boolean') return false;
  if (f.kind === 'choices') return [];
  return undefined;
}

/**
 * The `content` to accept with: every field with a value; optional fields left empty are
 * left out (an empty string is not an e-mail address). Booleans are always sent.
 */
export function answerContent(fields: ElicitationField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.kind === 'boolean') out[f.key] = v === true;
    else if (v === undefined || v === null || v === '') continue;
    else if (f.kind === 'choices' && Array.isArray(v) && v.length === 0 && !f.required) continue;
    else out[f.key] = v;
  }
  return out;
}

const FORMAT_CHECK: Record<string, { test: (v: string) => boolean; what: string }> = {
  email: { test: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), what: 'an e-mail address' },
  uri: {
    test: (v) => {
      try {
        return /^[a-z][a-z0-9+.-]*:/i.test(v) && Boolean(new URL(v));
      } catch {
        return false;
      }
    },
    what: 'a URL with a scheme (https://…)',
  },
  date: { test: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)), what: 'a date (YYYY-MM-DD)' },
  'date-time': { test: (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), what: 'a date and time (YYYY-MM-DDTHH:MM:SSZ)' },
};

/**
 * What is wrong with `content` for the form, one line per field, named by its label: missing
 * required fields, formats (email, uri, date, date-time), lengths, bounds and counts.
 */
export function fieldProblems(fields: ElicitationField[], content: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const v = content[f.key];
    if (v === undefined) {
      if (f.required) out.push(`${f.label} is required`);
      continue;
    }
    if (f.kind === 'text' && typeof v === 'string') {
      const check = f.format ? FORMAT_CHECK[f.format] : undefined;
      if (check && !check.test(v)) out.push(`${f.label} must be ${check.what}`);
      if (f.min !== undefined && v.length < f.min) out.push(`${f.label} needs at least ${f.min} characters`);
      if (f.max !== undefined && v.length > f.max) out.push(`${f.label} takes at most ${f.max} characters`);
    } else if (f.kind === 'number' && (typeof v !== 'number' || !Number.isFinite(v))) {
      out.push(`${f.label} must be a number`);
    } else if (f.kind === 'number' && typeof v === 'number') {
      if (f.integer && !Number.isInteger(v)) out.push(`${f.label} must be a whole number`);
      if (f.min !== undefined && v < f.min) out.push(`${f.label} must be at least ${f.min}`);
      if (f.max !== undefined && v > f.max) out.push(`${f.label} must be at most ${f.max}`);
    } else if (f.kind === 'choices' && Array.isArray(v)) {
      if (f.min !== undefined && v.length < f.min) out.push(`${f.label}: choose at least ${f.min}`);
      if (f.max !== undefined && v.length > f.max) out.push(`${f.label}: choose at most ${f.max}`);
    }
  }
  return out;
}
