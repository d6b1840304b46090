// Epic's path matcher (`api/src/router.rs`): the path is split on '/', the leading empty
// segment dropped, and walked down a tree whose children are tried in insertion order: a literal
// segment, `*` (any one segment) or `**` (the rest of the path). No backtracking; no match, or a
// node without a route, is a 404.

interface Node<R> {
  readonly segment: string;
  readonly children: Node<R>[];
  route: R | null;
}

export class Router<R> {
  private readonly root: Node<R> = { segment: '', children: [], route: null };

  add(pattern: string, route: R): void {
    let node = this.root;
    for (const seg of segments(pattern)) {
      let child = node.children.find((c) => c.segment === seg);
      if (!child) {
        child = { segment: seg, children: [], route: null };
        node.children.push(child);
      }
      node = child;
    }
    if (node.route !== null) throw new Error(`route ${pattern} registered twice`);
    node.route = route;
  }

  match(path: string): R | null {
    let node = this.root;
    for (const seg of segments(path)) {
      const child = node.children.find(
        (c) => c.segment === seg || c.segment === '*' || c.segment === '**',
      );
      if (!child) return null;
      if (child.segment === '**') return child.route;
      node = child;
    }
    return node.route;
  }
}

function segments(path: string): string[] {
  const parts = path.split('/');
  return parts[0] === '' ? parts.slice(1) : parts;
}
