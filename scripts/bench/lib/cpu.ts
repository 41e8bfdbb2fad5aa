/**
 * CPU time spent by processes of this machine (Linux /proc), in ms. On a shared machine the
 * latencies depend on everyone's load; the CPU a request costs each process much less so.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User plus system CPU of a process so far; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces): state is 3rd, utime 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of a set of processes from now on: call the result to read the ms spent since. */
export function cpuSince(pids: number[]): () => number {
  const start = new Map(pids.map((p) => [p, cpuMs(p)]));
  return () => pids.reduce((sum, p) => sum + cpuMs(p) - (start.get(p) ?? 0), 0);
}
