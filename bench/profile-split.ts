/**
 * Splits V8 CPU profiles (`node --cpu-prof`, one file per thread) by time segment and by kind
 * of work (docs/architecture.md#where-an-answers-cpu-goes): a sample counts for the kind of
 * the innermost frame on its stack that names one (a compiled serialiser or validator, which
 * has no file, counts for what called it), so an engine call made from a route counts as
 * engine work and the route's own code as the framework's.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** A stretch of the run: `requests` of one route between two monotonic clock readings. */
export interface Segment {
  name: string;
  startUs: number;
  endUs: number;
  requests: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The kinds, tested in this order against a frame's file and then its function's name. */
const KINDS: ReadonlyArray<[string, (url: string, fn: string) => boolean]> = [
  ['gc', (u, f) => f === '(garbage collector)'],
  ['idle', (u, f) => f === '(idle)'],
  ['native', (u, f) => f === '(program)'],
  ['filter normalisation', (u) => u.includes('/src/engine/filter')],
  ['engine', (u) => u.includes('/src/engine/') || u.includes('/src/domain/')],
  ['compression', (u, f) => u.includes('content-coding') || u === 'node:zlib' || /ompress/.test(f)],
  ['serialisation', (u) => /answer-bytes|answer-envelope|fast-json-stringify|serializer/.test(u)],
  ['logging', (u) => /pino|sonic-boom|fastify\/lib\/logger|throttled-log/.test(u)],
  ['metrics', (u) => /prom-client|src\/http\/metrics/.test(u)],
  [
    'hop to engine thread',
    (u, f) =>
      /engine-thread\/|node:internal\/worker/.test(u) || /^(postMessage|emitMessage)/.test(f),
  ],
  ['validation', (u) => /ajv|fastify\/lib\/validation/.test(u)],
  ['body parsing', (u) => /contentTypeParser|json-body|secure-json-parse/.test(u)],
  ['HTTP parsing', (u, f) => u === 'node:_http_common' || /^parserOn/.test(f)],
  [
    'socket write',
    (u) => /_http_outgoing|node:net|stream_base_commons|node:internal\/streams/.test(u),
  ],
  [
    'guards and limits',
    (u) => /rate-limit|origin-guard|security-headers|connection-guard|limits/.test(u),
  ],
  ['framework and route', (u) => /fastify|src\/http\//.test(u) || u === 'node:_http_server'],
];

function kindOf(node: ProfileNode): string | null {
  const { url, functionName } = node.callFrame;
  for (const [kind, test] of KINDS) if (test(url, functionName)) return kind;
  return null;
}

/** Each node's kind: its own, else its caller's (a root's: "other"). */
function kindsOf(profile: Profile): Map<number, string> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const kinds = new Map<number, string>();
  const visit = (id: number, inherited: string) => {
    const node = byId.get(id)!;
    const kind = kindOf(node) ?? inherited;
    kinds.set(id, kind);
    for (const child of node.children ?? []) visit(child, kind);
  };
  visit(profile.nodes[0].id, 'other');
  return kinds;
}

/** Milliseconds of each kind within each segment, for one thread's profile. */
function splitOne(
  profile: Profile,
  segments: readonly Segment[],
): Map<string, Map<string, number>> {
  const kinds = kindsOf(profile);
  const out = new Map(segments.map((s) => [s.name, new Map<string, number>()]));
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    // The time up to the next sample is this sample's.
    const weightUs = profile.timeDeltas[i + 1] ?? 0;
    const segment = segments.find((s) => t >= s.startUs && t < s.endUs);
    if (segment === undefined) continue;
    const kind = kinds.get(profile.samples[i])!;
    if (kind === 'idle') continue;
    const sums = out.get(segment.name)!;
    sums.set(kind, (sums.get(kind) ?? 0) + weightUs / 1000);
  }
  return out;
}

/**
 * A table per profile file (one per thread) of CPU milliseconds per request, by kind (rows)
 * and segment (columns); segments of one name are added up.
 */
export function splitProfiles(files: readonly string[], segments: readonly Segment[]): string {
  const names = [...new Set(segments.map((s) => s.name))];
  const requests = new Map<string, number>();
  for (const s of segments) requests.set(s.name, (requests.get(s.name) ?? 0) + s.requests);
  const lines: string[] = [];
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const split = splitOne(profile, segments);
    const kinds = [...new Set([...split.values()].flatMap((m) => [...m.keys()]))].sort();
    lines.push(`\n${basename(file)}: CPU ms per request`, `| kind | ${names.join(' | ')} |`);
    lines.push(`|---|${names.map(() => '---:').join('|')}|`);
    const cell = (name: string, kind: string | null) => {
      const sums = split.get(name)!;
      const ms =
        kind === null ? [...sums.values()].reduce((a, b) => a + b, 0) : (sums.get(kind) ?? 0);
      return (ms / requests.get(name)!).toFixed(3);
    };
    for (const kind of kinds)
      lines.push(`| ${kind} | ${names.map((n) => cell(n, kind)).join(' | ')} |`);
    lines.push(`| **all** | ${names.map((n) => cell(n, null)).join(' | ')} |`);
  }
  return lines.join('\n');
}
