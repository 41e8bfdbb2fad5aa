/**
 * Every circle of a graph of names (modules, features), each once, as the path that closes it
 * (`a -> b -> a`): the server modules' and the web features' circle tests share it.
 */
export function graphCircles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const found = new Set<string>();
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const loop = path.slice(at);
        // The same circle from its smallest member, so it is reported once.
        const start = loop.indexOf([...loop].sort()[0]);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...turned, turned[0]].join(' -> '));
      } else if (path.length < graph.size) walk(next, [...path, next]);
    }
  };
  for (const node of graph.keys()) walk(node, [node]);
  return [...found].sort();
}
