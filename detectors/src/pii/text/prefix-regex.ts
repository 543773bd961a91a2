// A regular expression source matching any of a set of literal prefixes, written as a trie
// ("sk-(?:ant-|proj-)?" rather than "sk-ant-|sk-proj-|sk-"), so the engine tests each position against
// a few first characters instead of every alternative in turn. Literals only: no backtracking beyond
// the length of the longest prefix.

const escape = (ch: string) => (/[.*+?^${}()|[\]\\/-]/.test(ch) ? `\\${ch}` : ch);

interface Node {
  end: boolean;
  next: Map<string, Node>;
}

function insert(root: Node, word: string): void {
  let node = root;
  for (const ch of word) {
    let child = node.next.get(ch);
    if (!child) node.next.set(ch, (child = { end: false, next: new Map() }));
    node = child;
  }
  node.end = true;
}

function render(node: Node): string {
  const branches = [...node.next.entries()].map(([ch, child]) => escape(ch) + render(child));
  if (branches.length === 0) return '';
  const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
  // Longer prefixes are tried first (greedy "?"), then the one ending here.
  return node.end ? (branches.length === 1 && branches[0]!.length === 1 ? `${body}?` : `(?:${body})?`) : body;
}

/** The source of a regex matching any of `prefixes` (an empty set matches nothing). */
export function prefixAlternation(prefixes: readonly string[]): string {
  const root: Node = { end: false, next: new Map() };
  for (const prefix of prefixes) if (prefix.length > 0) insert(root, prefix);
  return root.next.size === 0 ? '(?!)' : render(root);
}
