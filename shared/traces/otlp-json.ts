/**
 * Reads spans out of an OTLP/JSON export request (`{ resourceSpans: [{ resource, scopeSpans:
 * [{ scope, spans }] }] }`, the JSON mapping of opentelemetry-proto's
 * `ExportTraceServiceRequest`: hex trace and span ids, `startTimeUnixNano` / `endTimeUnixNano`
 * as decimal strings or numbers, attributes as `{ key, value: AnyValue }`). Browser-safe. A
 * span that cannot be read is left out with a problem naming its JSON pointer and why; it never
 * throws on hostile input. Linear in the number of spans.
 */
import type { ThreadProblem } from '../thread/validate';

/** One span as read: times in epoch ms, attributes decoded to plain JSON values. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage?: string;
  /** Where the span is in the input (JSON pointer). */
  pointer: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX = (n: number) => new RegExp(`^[0-9a-fA-F]{${n}}$`);
const TRACE_ID = HEX(32);
const SPAN_ID = HEX(16);
const NANOS = /^\d{1,25}$/;

/** An AnyValue as JSON: string, number, boolean, array, object (kvlist), base64 text (bytes) or null. */
export function anyValue(v: unknown, depth = 0): unknown {
  if (!isObj(v) || depth > 64) return null;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (typeof v.intValue === 'number') return v.intValue;
  if (typeof v.intValue === 'string' && /^-?\d{1,20}$/.test(v.intValue)) return Number(v.intValue);
  if (typeof v.doubleValue === 'number') return v.doubleValue;
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  if (isObj(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map((x) => anyValue(x, depth + 1)) : [];
  if (isObj(v.kvlistValue)) return attributesOf(v.kvlistValue.values, depth + 1);
  return null;
}

/** `[{ key, value }]` → `{ key: value }`; entries without a string key are skipped. */
export function attributesOf(list: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const a of list) if (isObj(a) && typeof a.key === 'string') out[a.key] = anyValue(a.value, depth);
  return out;
}

/** Nanoseconds since the epoch (decimal string or number) → ms; undefined when it is not one. */
function msOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v / 1e6;
  if (typeof v === 'string' && NANOS.test(v)) return Number(BigInt(v) / 1000n) / 1000;
  return undefined;
}

function spanOf(s: unknown, at: string, resource: Record<string, unknown>, problems: ThreadProblem[]): OtlpSpan | undefined {
  const bad = (field: string, why: string) => void problems.push({ pointer: `${at}${field}`, message: why });
  if (!isObj(s)) return bad('', 'expected a span object'), undefined;
  if (typeof s.traceId !== 'string' || !TRACE_ID.test(s.traceId)) return bad('/traceId', 'expected 32 hex digits'), undefined;
  if (typeof s.spanId !== 'string' || !SPAN_ID.test(s.spanId)) return bad('/spanId', 'expected 16 hex digits'), undefined;
  const start = msOf(s.startTimeUnixNano);
  if (start === undefined) return bad('/startTimeUnixNano', 'expected nanoseconds since the epoch'), undefined;
  const end = msOf(s.endTimeUnixNano) ?? start;
  const parent = typeof s.parentSpanId === 'string' && SPAN_ID.test(s.parentSpanId) ? s.parentSpanId.toLowerCase() : undefined;
  const status = isObj(s.status) ? s.status : {};
  return {
    traceId: s.traceId.toLowerCase(),
    spanId: s.spanId.toLowerCase(),
    ...(parent && parent !== '0000000000000000' ? { parentSpanId: parent } : {}),
    name: typeof s.name === 'string' ? s.name : '',
    kind: typeof s.kind === 'number' ? s.kind : 0,
    startMs: start,
    endMs: Math.max(start, end),
    attributes: { ...resource, ...attributesOf(s.attributes) },
    statusCode: typeof status.code === 'number' ? status.code : 0,
    ...(typeof status.message === 'string' && status.message ? { statusMessage: status.message } : {}),
    pointer: at,
  };
}

/**
 * Every readable span of `json`, with the resource's attributes under each span's own (a span's
 * own attribute wins). Problems list what was left out. Returns undefined when `json` is not an
 * OTLP/JSON traces document at all (no `resourceSpans` array).
 */
export function readOtlpSpans(json: unknown, problems: ThreadProblem[]): OtlpSpan[] | undefined {
  if (!isObj(json) || !Array.isArray(json.resourceSpans)) return undefined;
  const spans: OtlpSpan[] = [];
  const seen = new Set<string>();
  json.resourceSpans.forEach((rs, i) => {
    const at = `/resourceSpans/${i}`;
    if (!isObj(rs)) return void problems.push({ pointer: at, message: 'expected { resource, scopeSpans }' });
    const resource = isObj(rs.resource) ? attributesOf(rs.resource.attributes) : {};
    const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [];
    scopes.forEach((ss, j) => {
      if (!isObj(ss) || !Array.isArray(ss.spans)) return void problems.push({ pointer: `${at}/scopeSpans/${j}`, message: 'expected { scope, spans: [...] }' });
      ss.spans.forEach((s, k) => {
        const p = `${at}/scopeSpans/${j}/spans/${k}`;
        const span = spanOf(s, p, resource, problems);
        if (!span) return;
        const key = `${span.traceId}/${span.spanId}`;
        if (seen.has(key)) return void problems.push({ pointer: `${p}/spanId`, message: `span ${span.spanId} appears twice in trace ${span.traceId}; the first is kept` });
        seen.add(key);
        spans.push(span);
      });
    });
  });
  return spans;
}
