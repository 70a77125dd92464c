// Sums a V8 .cpuprofile (from `node --cpu-prof`) by where the time went: self time per function and
// per package or source file, largest first. `node dist/bench/profile-summary.js FILE [--top N]`.

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly hitCount?: number;
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  /** Self time in milliseconds. */
  readonly ms: number;
  /** Share of all sampled time, 0 to 1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly byFunction: ProfileShare[];
  readonly byPlace: ProfileShare[];
  /** Time in a function and everything it called (recursion counted once), JavaScript functions only. */
  readonly inclusive: ProfileShare[];
}

/** Where a script lives, short: `ajv`, `@hono/node-server`, `mocks/mock.js`, `node:internal/...`. */
export function placeOf(url: string): string {
  if (url === '') return '(native / V8)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return url.slice(dist + '/dist/'.length);
  return url.startsWith('node:') ? url.split('/').slice(0, 2).join('/') : url;
}

function ranked(totals: Map<string, number>, totalMs: number): ProfileShare[] {
  return [...totals]
    .map(([name, ms]) => ({ name, ms, share: totalMs > 0 ? ms / totalMs : 0 }))
    .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name));
}

/** Self time per sampled node, from samples and their time deltas (hit counts when those are absent). */
export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const selfMs = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  if (samples !== undefined && timeDeltas !== undefined && samples.length === timeDeltas.length) {
    // A sample's delta is the time since the previous sample: it belongs to the previous sample's node.
    for (let i = 1; i < samples.length; i += 1) {
      const id = samples[i - 1] as number;
      selfMs.set(id, (selfMs.get(id) ?? 0) + (timeDeltas[i] as number) / 1000);
    }
  } else {
    const interval = (profile.endTime - profile.startTime) / 1000;
    const hits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
    for (const n of profile.nodes) selfMs.set(n.id, hits > 0 ? ((n.hitCount ?? 0) / hits) * interval : 0);
  }
  const parents = new Map<number, CpuProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const label = (node: CpuProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    const place = url === '' && functionName.startsWith('(') ? functionName : placeOf(url);
    return functionName.startsWith('(') && url === ''
      ? functionName
      : `${functionName || '(anonymous)'} ${place}${url === '' ? '' : `:${lineNumber + 1}`}`;
  };
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let totalMs = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (ms === 0) continue;
    const { functionName, url } = node.callFrame;
    const place = url === '' && functionName.startsWith('(') ? functionName : placeOf(url);
    // A native function says little alone: name who called it.
    const parent = parents.get(node.id);
    const fn =
      url === '' && parent !== undefined && !functionName.startsWith('(')
        ? `${label(node)} ← ${label(parent)}`
        : label(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    totalMs += ms;
  }
  const inclusive = inclusiveTimes(profile, selfMs, label);
  return {
    totalMs,
    byFunction: ranked(byFunction, totalMs),
    byPlace: ranked(byPlace, totalMs),
    inclusive: ranked(inclusive, totalMs),
  };
}

function inclusiveTimes(
  profile: CpuProfile,
  selfMs: ReadonlyMap<number, number>,
  label: (node: CpuProfileNode) => string,
): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const children = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const totals = new Map<string, number>();
  const open = new Map<string, number>();
  // Iterative depth-first walk: a node's subtree time is added to its label unless an ancestor with
  // the same label already counts it.
  const subtree = new Map<number, number>();
  const visit = (root: CpuProfileNode): void => {
    const stack: { node: CpuProfileNode; entered: boolean }[] = [{ node: root, entered: false }];
    while (stack.length > 0) {
      const top = stack.pop() as { node: CpuProfileNode; entered: boolean };
      const { node } = top;
      const name = label(node);
      if (!top.entered) {
        open.set(name, (open.get(name) ?? 0) + 1);
        stack.push({ node, entered: true });
        for (const id of node.children ?? []) {
          const child = byId.get(id);
          if (child !== undefined) stack.push({ node: child, entered: false });
        }
        continue;
      }
      let ms = selfMs.get(node.id) ?? 0;
      for (const id of node.children ?? []) ms += subtree.get(id) ?? 0;
      subtree.set(node.id, ms);
      const depth = (open.get(name) ?? 1) - 1;
      open.set(name, depth);
      if (depth === 0 && node.callFrame.url !== '' && ms > 0) totals.set(name, (totals.get(name) ?? 0) + ms);
    }
  };
  for (const node of profile.nodes) if (!children.has(node.id)) visit(node);
  return totals;
}

export function formatSummary(summary: ProfileSummary, top = 25): string {
  const line = (s: ProfileShare) =>
    `${(s.share * 100).toFixed(1).padStart(5)}%  ${s.ms.toFixed(0).padStart(6)} ms  ${s.name}`;
  return [
    `sampled ${summary.totalMs.toFixed(0)} ms`,
    '',
    'self time by package or file:',
    ...summary.byPlace.slice(0, top).map(line),
    '',
    'self time by function:',
    ...summary.byFunction.slice(0, top).map(line),
    '',
    'total time (self and callees) by JavaScript function:',
    ...summary.inclusive.slice(0, top).map(line),
  ].join('\n');
}
