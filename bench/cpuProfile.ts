import { Session } from 'node:inspector/promises';

export interface CpuProfileSummary {
  totalMs: number;
  /** Functions by self time (time on the CPU in the function itself, on this process's main thread). */
  top: { name: string; where: string; selfMs: number; callers: string[] }[];
  /**
   * Stretches of at least `stallMs` without an idle sample (the loop held), and the code of ours they were spent in;
   * `longest`: the longest ones, each with when it began (ms after the profile started) and its main leaf functions.
   */
  stalls: { count: number; totalMs: number; longestMs: number[]; in: string[]; longest: string[] };
  /** Non-idle time by the nearest frame of our code on the stack (a sample in no code of ours: its own name). */
  byOurCode: { where: string; ms: number }[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A V8 CPU profile of this process's main thread (the event loop), from start to stop. */
export async function startProfile(intervalUs = 1000): Promise<{ stop(top?: number): Promise<CpuProfileSummary> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop(top = 20, stallMs = 50) {
      const { profile } = (await session.post('Profiler.stop')) as unknown as {
        profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
      };
      session.disconnect();
      const selfUs = new Map<number, number>();
      profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
      const parent = new Map<number, ProfileNode>();
      for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
      const label = (node: ProfileNode) => {
        const { functionName, url, lineNumber } = node.callFrame;
        const where = url ? `${url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')}:${lineNumber + 1}` : '';
        return { name: functionName || '(anonymous)', where };
      };
      /** The first caller up the stack that is code of ours (not node_modules, not node's own). */
      const ourCaller = (node: ProfileNode): string => {
        for (let p = parent.get(node.id); p; p = parent.get(p.id)) {
          const { name, where } = label(p);
          if (where && !where.includes('node_modules') && !where.startsWith('node:')) return `${name} ${where}`;
        }
        return '?';
      };
      const byFunction = new Map<
        string,
        { name: string; where: string; selfMs: number; callerMs: Map<string, number> }
      >();
      for (const node of profile.nodes) {
        const { name, where } = label(node);
        const key = `${name}@${where}`;
        const entry = byFunction.get(key) ?? { name, where, selfMs: 0, callerMs: new Map<string, number>() };
        const ms = (selfUs.get(node.id) ?? 0) / 1000;
        entry.selfMs += ms;
        if (ms > 0) {
          const caller = ourCaller(node);
          entry.callerMs.set(caller, (entry.callerMs.get(caller) ?? 0) + ms);
        }
        byFunction.set(key, entry);
      }
      const all = [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs);
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const ours = (node: ProfileNode) => {
        const { name, where } = label(node);
        return where && !where.includes('node_modules') && !where.startsWith('node:')
          ? `${name} ${where}`
          : ourCaller(node);
      };
      const byOurCode = new Map<string, number>();
      for (const node of profile.nodes) {
        const ms = (selfUs.get(node.id) ?? 0) / 1000;
        if (!ms || node.callFrame.functionName === '(idle)') continue;
        const where = ours(node);
        const key = where === '?' ? label(node).name : where;
        byOurCode.set(key, (byOurCode.get(key) ?? 0) + ms);
      }
      const stalls = stallsOf(profile.samples, profile.timeDeltas, (id) => byId.get(id)!, stallMs, ours);
      return {
        stalls,
        byOurCode: [...byOurCode]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([where, ms]) => ({ where, ms: Math.round(ms) })),
        totalMs: all.reduce((s, f) => s + f.selfMs, 0),
        top: all.slice(0, top).map(({ callerMs, ...f }) => ({
          ...f,
          callers: [...callerMs]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([c, ms]) => `${Math.round(ms)} ms from ${c}`),
        })),
      };
    },
  };
}

/** The `n` largest entries of a name -> ms map, as "12 ms name, 5 ms other". */
function topOf(ms: Map<string, number>, n: number): string {
  return [...ms]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, v]) => `${Math.round(v)} ms ${name}`)
    .join(', ');
}

/** Runs of consecutive non-idle samples lasting at least `stallMs`, and where (in our code) their time went. */
function stallsOf(
  samples: number[],
  deltasUs: number[],
  node: (id: number) => ProfileNode,
  stallMs: number,
  ours: (node: ProfileNode) => string,
): CpuProfileSummary['stalls'] {
  const runs: { ms: number; atMs: number; where: Map<string, number>; leaves: Map<string, number> }[] = [];
  const inOurs = new Map<string, number>();
  let nowMs = 0;
  let run = { ms: 0, atMs: 0, where: new Map<string, number>(), leaves: new Map<string, number>() };
  const close = () => {
    if (run.ms >= stallMs) {
      runs.push(run);
      for (const [w, ms] of run.where) inOurs.set(w, (inOurs.get(w) ?? 0) + ms);
    }
    run = { ms: 0, atMs: nowMs, where: new Map(), leaves: new Map() };
  };
  samples.forEach((id, i) => {
    const n = node(id);
    const ms = (deltasUs[i + 1] ?? 0) / 1000; // a sample's delta is the time since the previous one
    nowMs += ms;
    if (n.callFrame.functionName === '(idle)') return close();
    run.ms += ms;
    const w = ours(n);
    run.where.set(w, (run.where.get(w) ?? 0) + ms);
    const leaf = `${n.callFrame.functionName || '(anonymous)'} < ${w}`;
    run.leaves.set(leaf, (run.leaves.get(leaf) ?? 0) + ms);
  });
  close();
  const longest = runs.sort((a, b) => b.ms - a.ms).slice(0, 8);
  return {
    count: runs.length,
    totalMs: Math.round(runs.reduce((a, r) => a + r.ms, 0)),
    longestMs: longest.map((r) => Math.round(r.ms)),
    longest: longest.map(
      (r) => `${Math.round(r.ms)} ms at +${Math.round(r.atMs)} ms: ${topOf(r.leaves, 4)} | in ${topOf(r.where, 4)}`,
    ),
    in: [...inOurs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([w, ms]) => `${Math.round(ms)} ms ${w}`),
  };
}
