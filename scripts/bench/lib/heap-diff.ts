/**
 * Compares two V8 heap snapshots (.heapsnapshot, as written by v8.writeHeapSnapshot or
 * BENCH_HEAP_SNAPSHOT of the chat benchmark) by constructor: how many objects of each, their own
 * (shallow) size and their retained size (what would be freed with them: the dominator tree),
 * before and after, and the difference divided by a count (the sockets opened in between).
 *
 *   npx tsx scripts/bench/lib/heap-diff.ts before.heapsnapshot after.heapsnapshot [per] [rows]
 *
 * `per` (default 1): the divisor of the difference (e.g. 10000 sockets); `rows` (default 25): the
 * constructors shown, largest growth of own size first. Retained sizes are summed over the
 * objects of a constructor that no other object of the same constructor dominates, so nested
 * ones are not counted twice. Weak edges are left out of the dominator tree, as DevTools does.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Row {
  count: number;
  self: number;
  retained: number;
}

function summarise(path: string): Map<string, Row> {
  const snap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const { meta } = snap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nType = meta.node_fields.indexOf('type');
  const nName = meta.node_fields.indexOf('name');
  const nSize = meta.node_fields.indexOf('self_size');
  const nEdges = meta.node_fields.indexOf('edge_count');
  const eType = meta.edge_fields.indexOf('type');
  const eTo = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const { nodes, edges, strings } = snap;
  const n = nodes.length / nf;

  // Each node's class: an object's constructor name, otherwise its kind in brackets.
  const classOf = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const type = nodeTypes[nodes[i * nf + nType]];
    const name = strings[nodes[i * nf + nName]];
    classOf[i] =
      type === 'object' || type === 'native'
        ? name.length > 60
          ? `${name.slice(0, 57)}...`
          : name
        : type === 'closure'
          ? '(closure)'
          : type === 'code' || type === 'hidden' || type === 'array'
            ? `(${type}) ${name.startsWith('system / ') ? name : ''}`.trim()
            : `(${type})`;
  }

  // Edges: first edge of each node.
  const firstEdge = new Int32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + nEdges] * ef;
  }
  firstEdge[n] = edges.length;
  const skip = (e: number) => edges[e + eType] === weak || edges[e + eType] === shortcut;

  // Reverse postorder from the root (node 0), iteratively.
  const order = new Int32Array(n).fill(-1);
  const post: number[] = [];
  const stack: number[] = [0];
  const cursor = new Int32Array(n);
  const seen = new Uint8Array(n);
  seen[0] = 1;
  for (let i = 0; i < n; i++) cursor[i] = firstEdge[i];
  while (stack.length) {
    const v = stack[stack.length - 1];
    let pushed = false;
    while (cursor[v] < firstEdge[v + 1]) {
      const e = cursor[v];
      cursor[v] += ef;
      if (skip(e)) continue;
      const w = edges[e + eTo] / nf;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push(w);
        pushed = true;
        break;
      }
    }
    if (!pushed) {
      stack.pop();
      post.push(v);
    }
  }
  for (let i = 0; i < post.length; i++) order[post[i]] = i;
  // Predecessors of reachable nodes.
  const predCount = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    if (order[v] < 0) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (!skip(e)) predCount[edges[e + eTo] / nf + 1]++;
    }
  }
  for (let i = 0; i < n; i++) predCount[i + 1] += predCount[i];
  const preds = new Int32Array(predCount[n]);
  const fill = predCount.slice(0, n);
  for (let v = 0; v < n; v++) {
    if (order[v] < 0) continue;
    for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += ef) {
      if (!skip(e)) preds[fill[edges[e + eTo] / nf]++] = v;
    }
  }
  // Dominators (Cooper, Harvey, Kennedy), over postorder numbers.
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a] < order[b]) a = idom[a];
      while (order[b] < order[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = post.length - 2; i >= 0; i--) {
      const v = post[i];
      let dom = -1;
      for (let p = predCount[v]; p < predCount[v + 1]; p++) {
        const u = preds[p];
        if (idom[u] < 0) continue;
        dom = dom < 0 ? u : intersect(u, dom);
      }
      if (dom >= 0 && idom[v] !== dom) {
        idom[v] = dom;
        changed = true;
      }
    }
  }
  // Retained sizes, children before their dominators (postorder).
  const retained = new Float64Array(n);
  for (let i = 0; i < n; i++) retained[i] = nodes[i * nf + nSize];
  for (const v of post) if (v !== 0 && idom[v] >= 0) retained[idom[v]] += retained[v];

  const rows = new Map<string, Row>();
  for (let v = 0; v < n; v++) {
    if (order[v] < 0) continue;
    const cls = classOf[v];
    let row = rows.get(cls);
    if (!row) rows.set(cls, (row = { count: 0, self: 0, retained: 0 }));
    row.count++;
    row.self += nodes[v * nf + nSize];
    // Counted unless an object of the same class dominates it (its size is in that one's).
    let d = idom[v];
    let nested = false;
    while (d > 0) {
      if (classOf[d] === cls) {
        nested = true;
        break;
      }
      d = idom[d];
    }
    if (!nested) row.retained += retained[v];
  }
  return rows;
}

const [beforePath, afterPath, perArg, rowsArg] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [per] [rows]');
  process.exit(2);
}
const per = Number(perArg ?? 1);
const shown = Number(rowsArg ?? 25);
const before = summarise(beforePath);
const after = summarise(afterPath);
const zero: Row = { count: 0, self: 0, retained: 0 };
const diff = [...new Set([...before.keys(), ...after.keys()])].map((cls) => {
  const b = before.get(cls) ?? zero;
  const a = after.get(cls) ?? zero;
  return {
    cls,
    count: (a.count - b.count) / per,
    self: (a.self - b.self) / per,
    retained: (a.retained - b.retained) / per,
  };
});
diff.sort((x, y) => y.self - x.self);
const total = (m: Map<string, Row>) => [...m.values()].reduce((s, r) => s + r.self, 0);
const f = (x: number, d = 0) => x.toFixed(d);
console.log(
  `heap: ${f(total(before) / 1048576, 1)} MB → ${f(total(after) / 1048576, 1)} MB; per ${per}: ${f((total(after) - total(before)) / per)} bytes`,
);
console.log('\n| constructor | objects per | own bytes per | retained bytes per |');
console.log('|---|---|---|---|');
for (const r of diff.slice(0, shown)) {
  console.log(
    `| ${r.cls.replace(/\|/g, '\\|')} | ${f(r.count, 2)} | ${f(r.self)} | ${f(r.retained)} |`,
  );
}
