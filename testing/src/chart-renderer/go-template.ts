// A renderer for the subset of Go text/template (plus the Sprig/Helm functions) that charts/palisade
// uses, so the chart's tests can render its templates where no `helm` binary exists. Written by hand
// because no maintained npm package implements Go templates with Helm's function set; it follows Go's
// semantics for what it supports (trim markers, truthiness, scopes, sorted map ranges, nil field errors)
// and throws on anything else, so a template using an unsupported construct fails the tests loudly.
import { createHash, randomBytes } from 'node:crypto';
import { stringify } from 'yaml';

type Value = unknown;
type Dict = Record<string, Value>;

// ---- lexing --------------------------------------------------------------------------------------

type Segment = { kind: 'text'; text: string } | { kind: 'action'; body: string; line: number };

/** Splits a template into text and `{{ … }}` actions, applying the `{{-` / `-}}` trim markers. */
function segment(source: string): Segment[] {
  const out: Segment[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    let text = open === -1 ? source.slice(pos) : source.slice(pos, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open === -1) {
      out.push({ kind: 'text', text });
      break;
    }
    const trimLeft = source.startsWith('{{- ', open) || source.startsWith('{{-\n', open);
    if (trimLeft) text = text.replace(/\s+$/, '');
    out.push({ kind: 'text', text });
    const close = findClose(source, open + 2);
    if (close === -1) throw new Error(`unclosed action at line ${lineOf(source, open)}`);
    const trimRight = source[close - 1] === '-' && /\s/.test(source[close - 2] ?? '');
    const body = source.slice(open + (trimLeft ? 3 : 2), trimRight ? close - 1 : close).trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) out.push({ kind: 'action', body, line: lineOf(source, open) });
    trimNext = trimRight;
    pos = close + 2;
  }
  return out;
}

/** The index of the `}}` closing an action, skipping string literals that may contain braces. */
function findClose(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === '"') {
      for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === '\\') i++;
    } else if (c === '`') {
      i = source.indexOf('`', i + 1);
      if (i === -1) return -1;
    } else if (c === '}' && source[i + 1] === '}') return i;
  }
  return -1;
}

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ident'; v: string }
  | { t: 'var'; v: string; fields: string[] }
  | { t: 'field'; fields: string[] }
  | { t: 'punct'; v: '(' | ')' | '|' | ':=' | '=' | ',' };

function tokenize(body: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fieldChain = (): string[] => {
    const fields: string[] = [];
    while (body[i] === '.') {
      const m = /^\.([A-Za-z_][A-Za-z0-9_]*)?/.exec(body.slice(i))!;
      i += m[0].length;
      if (m[1]) fields.push(m[1]);
      else break;
    }
    return fields;
  };
  while (i < body.length) {
    const c = body[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < body.length && body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
      tokens.push({ t: 'str', v: JSON.parse(body.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (c === '`') {
      const j = body.indexOf('`', i + 1);
      tokens.push({ t: 'str', v: body.slice(i + 1, j) });
      i = j + 1;
    } else if (body.startsWith(':=', i)) {
      tokens.push({ t: 'punct', v: ':=' });
      i += 2;
    } else if ('()|=,'.includes(c)) {
      tokens.push({ t: 'punct', v: c as '(' | ')' | '|' | '=' | ',' });
      i++;
    } else if (c === '$') {
      const m = /^\$[A-Za-z0-9_]*/.exec(body.slice(i))!;
      i += m[0].length;
      tokens.push({ t: 'var', v: m[0], fields: fieldChain() });
    } else if (c === '.') {
      tokens.push({ t: 'field', fields: fieldChain() });
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(body.slice(i));
      if (!m) throw new Error(`unexpected "${c}" in {{ ${body} }}`);
      tokens.push({ t: 'num', v: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(body.slice(i))!;
      tokens.push({ t: 'ident', v: m[0] });
      i += m[0].length;
    } else {
      throw new Error(`unexpected "${c}" in {{ ${body} }}`);
    }
  }
  return tokens;
}

// ---- parsing -------------------------------------------------------------------------------------

type Operand =
  | { k: 'lit'; v: Value }
  | { k: 'field'; fields: string[] }
  | { k: 'var'; name: string; fields: string[] }
  | { k: 'call'; name: string }
  | { k: 'sub'; pipe: Pipeline };
type Command = Operand[];
interface Pipeline {
  decl: string[];
  assign: boolean;
  commands: Command[];
}

type Node =
  | { n: 'text'; text: string }
  | { n: 'out'; pipe: Pipeline; line: number }
  | { n: 'if'; pipe: Pipeline; then: Node[]; else: Node[] }
  | { n: 'range'; pipe: Pipeline; body: Node[]; else: Node[] }
  | { n: 'with'; pipe: Pipeline; body: Node[]; else: Node[] }
  | { n: 'template'; name: string; pipe: Pipeline | undefined };

const KEYWORD_CONSTANTS: Record<string, Value> = { true: true, false: false, nil: null };

function parsePipeline(tokens: Token[], context: string): Pipeline {
  let pos = 0;
  const decl: string[] = [];
  let assign = false;
  // `$a :=`, `$a, $b :=` or `$a =` before the commands.
  const declEnd = tokens.findIndex((t) => t.t === 'punct' && (t.v === ':=' || t.v === '='));
  if (declEnd > 0 && tokens.slice(0, declEnd).every((t) => t.t === 'var' || (t.t === 'punct' && t.v === ','))) {
    for (const t of tokens.slice(0, declEnd)) if (t.t === 'var') decl.push(t.v);
    assign = (tokens[declEnd] as { v: string }).v === '=';
    pos = declEnd + 1;
  }
  const parseCommands = (stopAtParen: boolean): Command[] => {
    const commands: Command[] = [[]];
    while (pos < tokens.length) {
      const tok = tokens[pos++]!;
      const current = commands[commands.length - 1]!;
      if (tok.t === 'punct' && tok.v === '|') commands.push([]);
      else if (tok.t === 'punct' && tok.v === ')') {
        if (stopAtParen) return commands;
        throw new Error(`unbalanced ")" in ${context}`);
      } else if (tok.t === 'punct' && tok.v === '(') current.push({ k: 'sub', pipe: { decl: [], assign: false, commands: parseCommands(true) } });
      else if (tok.t === 'str' || tok.t === 'num') current.push({ k: 'lit', v: tok.v });
      else if (tok.t === 'field') current.push({ k: 'field', fields: tok.fields });
      else if (tok.t === 'var') current.push({ k: 'var', name: tok.v, fields: tok.fields });
      else if (tok.t === 'ident') current.push(tok.v in KEYWORD_CONSTANTS ? { k: 'lit', v: KEYWORD_CONSTANTS[tok.v] } : { k: 'call', name: tok.v });
      else throw new Error(`unexpected "${tok.v}" in ${context}`);
    }
    if (stopAtParen) throw new Error(`unclosed "(" in ${context}`);
    return commands;
  };
  const commands = parseCommands(false);
  if (commands.some((c) => c.length === 0)) throw new Error(`empty command in ${context}`);
  return { decl, assign, commands };
}

interface Parsed {
  nodes: Node[];
  defines: Map<string, Node[]>;
}

function parse(source: string, file: string): Parsed {
  const segments = segment(source);
  const defines = new Map<string, Node[]>();
  let index = 0;
  // Parses until one of `stops` (an action keyword) and returns which one ended the list.
  const parseList = (stops: string[]): { nodes: Node[]; stop: string; rest: Token[] } => {
    const nodes: Node[] = [];
    while (index < segments.length) {
      const seg = segments[index++]!;
      if (seg.kind === 'text') {
        if (seg.text) nodes.push({ n: 'text', text: seg.text });
        continue;
      }
      const where = `${file}:${seg.line} {{ ${seg.body} }}`;
      const tokens = tokenize(seg.body);
      const head = tokens[0];
      const word = head?.t === 'ident' ? head.v : '';
      if (stops.includes(word)) return { nodes, stop: word, rest: tokens.slice(1) };
      if (word === 'if' || word === 'range' || word === 'with') {
        nodes.push(parseBlock(word, tokens.slice(1), where));
      } else if (word === 'define') {
        const name = tokens[1]?.t === 'str' ? tokens[1].v : undefined;
        if (!name) throw new Error(`define needs a name at ${where}`);
        defines.set(name, parseList(['end']).nodes);
      } else if (word === 'template') {
        const name = tokens[1]?.t === 'str' ? tokens[1].v : undefined;
        if (!name) throw new Error(`template needs a name at ${where}`);
        nodes.push({ n: 'template', name, pipe: tokens.length > 2 ? parsePipeline(tokens.slice(2), where) : undefined });
      } else if (word === 'end' || word === 'else') {
        throw new Error(`unexpected {{ ${word} }} at ${where}`);
      } else if (word === 'block' || word === 'break' || word === 'continue') {
        throw new Error(`{{ ${word} }} is not supported by this renderer (${where})`);
      } else {
        nodes.push({ n: 'out', pipe: parsePipeline(tokens, where), line: seg.line });
      }
    }
    if (stops.length > 0) throw new Error(`${file}: missing {{ end }}`);
    return { nodes, stop: '', rest: [] };
  };
  const parseBlock = (word: 'if' | 'range' | 'with', tokens: Token[], where: string): Node => {
    const pipe = parsePipeline(tokens, where);
    const body = parseList(['else', 'end']);
    let elseNodes: Node[] = [];
    if (body.stop === 'else') {
      const chained = body.rest[0]?.t === 'ident' ? body.rest[0].v : '';
      if (chained === 'if' || chained === 'with') {
        // `else if` / `else with`: a nested block that shares this block's `end`.
        elseNodes = [parseBlock(chained, body.rest.slice(1), where)];
      } else {
        elseNodes = parseList(['end']).nodes;
      }
    }
    if (word === 'if') return { n: 'if', pipe, then: body.nodes, else: elseNodes };
    return { n: word, pipe, body: body.nodes, else: elseNodes };
  };
  const nodes = parseList([]).nodes;
  return { nodes, defines };
}

// ---- evaluation ----------------------------------------------------------------------------------

class Scope {
  private readonly vars = new Map<string, Value>();
  constructor(private readonly parent?: Scope) {}
  declare(name: string, value: Value) {
    this.vars.set(name, value);
  }
  assign(name: string, value: Value) {
    if (this.vars.has(name)) this.vars.set(name, value);
    else if (this.parent) this.parent.assign(name, value);
    else throw new Error(`undefined variable ${name}`);
  }
  get(name: string): Value {
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.get(name);
    throw new Error(`undefined variable ${name}`);
  }
}

const isDict = (v: Value): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's truth: false, 0, nil and empty strings, lists and maps are false. */
export function truthy(v: Value): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}

function fieldOf(value: Value, fields: string[], where: string): Value {
  let current = value;
  for (const field of fields) {
    if (current === null || current === undefined) throw new Error(`nil pointer evaluating .${field} at ${where}`);
    if (!isDict(current)) throw new Error(`can't evaluate field ${field} in ${typeof current} at ${where}`);
    current = Object.hasOwn(current, field) ? current[field] : undefined;
  }
  return current;
}

/** How Go's fmt prints a value in template output (`%v`). */
function print(v: Value): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Error(`cannot print a ${Array.isArray(v) ? 'list' : 'map'} directly; use toYaml`);
}

/** Go's fmt.Sprintf for the verbs charts use: %s %d %v %q %%. */
function sprintf(format: string, args: Value[]): string {
  let n = 0;
  return format.replace(/%([sdvq%])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[n++];
    if (verb === 'q') return JSON.stringify(print(arg));
    if (verb === 'd') return String(Math.trunc(Number(arg)));
    return print(arg);
  });
}

/** Sprig's toYaml as Helm has it: sigs.k8s.io/yaml output (sorted keys), trailing newline removed. */
function toYaml(v: Value): string {
  if (v === null || v === undefined) return 'null';
  return stringify(v, { sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, '');
}

function indent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return pad + text.replace(/\n/g, `\n${pad}`);
}

export interface RenderOptions {
  /** Answers Helm's `lookup`; default: nothing exists (as with `helm template`). */
  lookup?: (apiVersion: string, kind: string, namespace: string, name: string) => Dict | undefined;
}

/** A set of templates sharing their `define`s, as Helm renders a chart's templates/ folder. */
export class TemplateSet {
  private readonly files = new Map<string, Node[]>();
  private readonly defines = new Map<string, Node[]>();

  constructor(private readonly options: RenderOptions = {}) {}

  add(file: string, source: string): void {
    const parsed = parse(source, file);
    this.files.set(file, parsed.nodes);
    for (const [name, nodes] of parsed.defines) this.defines.set(name, nodes);
  }

  render(file: string, root: Dict): string {
    const nodes = this.files.get(file);
    if (!nodes) throw new Error(`no template ${file}`);
    const scope = new Scope();
    scope.declare('$', root);
    return this.exec(nodes, root, scope, file);
  }

  private include(name: string, dot: Value, where: string): string {
    const nodes = this.defines.get(name);
    if (!nodes) throw new Error(`no template "${name}" defined (${where})`);
    const scope = new Scope();
    scope.declare('$', dot);
    return this.exec(nodes, dot, scope, `define ${name}`);
  }

  private exec(nodes: Node[], dot: Value, scope: Scope, where: string): string {
    let out = '';
    for (const node of nodes) {
      switch (node.n) {
        case 'text':
          out += node.text;
          break;
        case 'out': {
          const value = this.pipeline(node.pipe, dot, scope, `${where}:${node.line}`);
          if (node.pipe.decl.length === 0) out += print(value);
          break;
        }
        case 'if': {
          const inner = new Scope(scope);
          out += truthy(this.pipeline(node.pipe, dot, inner, where)) ? this.exec(node.then, dot, inner, where) : this.exec(node.else, dot, new Scope(scope), where);
          break;
        }
        case 'with': {
          const inner = new Scope(scope);
          const value = this.pipeline(node.pipe, dot, inner, where);
          out += truthy(value) ? this.exec(node.body, value, inner, where) : this.exec(node.else, dot, new Scope(scope), where);
          break;
        }
        case 'range':
          out += this.range(node, dot, scope, where);
          break;
        case 'template':
          out += this.include(node.name, node.pipe ? this.pipeline(node.pipe, dot, scope, where) : null, where);
          break;
      }
    }
    return out;
  }

  private range(node: Extract<Node, { n: 'range' }>, dot: Value, scope: Scope, where: string): string {
    const pipe = { ...node.pipe, decl: [] };
    const collection = this.pipeline(pipe, dot, scope, where);
    // Go ranges over a map in sorted key order.
    const entries: Array<[Value, Value]> = Array.isArray(collection)
      ? collection.map((v, i) => [i, v])
      : isDict(collection)
        ? Object.keys(collection).sort().map((k) => [k, collection[k]])
        : collection === null || collection === undefined
          ? []
          : (() => {
              throw new Error(`range can't iterate over ${String(collection)} (${where})`);
            })();
    if (entries.length === 0) return this.exec(node.else, dot, new Scope(scope), where);
    let out = '';
    for (const [key, value] of entries) {
      const inner = new Scope(scope);
      if (node.pipe.decl.length === 1) inner.declare(node.pipe.decl[0]!, value);
      if (node.pipe.decl.length === 2) {
        inner.declare(node.pipe.decl[0]!, key);
        inner.declare(node.pipe.decl[1]!, value);
      }
      out += this.exec(node.body, value, inner, where);
    }
    return out;
  }

  private pipeline(pipe: Pipeline, dot: Value, scope: Scope, where: string): Value {
    let value: Value = undefined;
    pipe.commands.forEach((command, i) => {
      value = this.command(command, dot, scope, where, i === 0 ? [] : [value]);
    });
    if (pipe.decl.length > 0) {
      if (pipe.assign) scope.assign(pipe.decl[0]!, value);
      else scope.declare(pipe.decl[0]!, value);
    }
    return value;
  }

  private command(command: Command, dot: Value, scope: Scope, where: string, piped: Value[]): Value {
    const [head, ...rest] = command;
    if (head!.k !== 'call') {
      const value = this.operand(head!, dot, scope, where);
      // A method of the root object, as Helm's `.Files.Get "path"`.
      if (typeof value === 'function') return (value as (...a: Value[]) => Value)(...rest.map((op) => this.operand(op, dot, scope, where)), ...piped);
      if (rest.length > 0 || piped.length > 0) throw new Error(`can't give arguments to a non-function at ${where}`);
      return value;
    }
    const name = head!.name;
    // and/or short-circuit and return the deciding argument (Go 1.18+).
    if (name === 'and' || name === 'or') {
      const args = [...rest.map((op) => () => this.operand(op, dot, scope, where)), ...piped.map((v) => () => v)];
      let last: Value = undefined;
      for (const arg of args) {
        last = arg();
        if (name === 'and' ? !truthy(last) : truthy(last)) return last;
      }
      return last;
    }
    const args = [...rest.map((op) => this.operand(op, dot, scope, where)), ...piped];
    if (name === 'include') return this.include(String(args[0]), args[1], where);
    const fn = FUNCTIONS[name];
    if (!fn) throw new Error(`function "${name}" not defined in this renderer (${where})`);
    if (name === 'lookup') return this.options.lookup?.(...(args as [string, string, string, string])) ?? {};
    return fn(args, where);
  }

  private operand(op: Operand, dot: Value, scope: Scope, where: string): Value {
    switch (op.k) {
      case 'lit':
        return op.v;
      case 'field':
        return fieldOf(dot, op.fields, where);
      case 'var':
        return fieldOf(scope.get(op.name), op.fields, where);
      case 'sub':
        return this.pipeline(op.pipe, dot, scope, where);
      case 'call':
        return this.command([op], dot, scope, where, []);
    }
  }
}

/** `over` wins over `under`; nested maps merge. */
function deepMerge(under: Dict, over: Dict): Dict {
  const out: Dict = { ...under };
  for (const [k, v] of Object.entries(over)) out[k] = isDict(v) && isDict(out[k]) ? deepMerge(out[k] as Dict, v) : v;
  return out;
}

const num = (v: Value): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : v === true ? 1 : 0);

/** Go's eq: false across kinds (string vs number), value equality otherwise. */
const equal = (a: Value, b: Value): boolean => (a === undefined ? null : a) === (b === undefined ? null : b);

const FUNCTIONS: Record<string, (args: Value[], where: string) => Value> = {
  not: ([v]) => !truthy(v),
  eq: ([a, ...others]) => others.some((b) => equal(a, b)),
  ne: ([a, b]) => !equal(a, b),
  lt: ([a, b]) => num(a) < num(b),
  le: ([a, b]) => num(a) <= num(b),
  gt: ([a, b]) => num(a) > num(b),
  ge: ([a, b]) => num(a) >= num(b),
  default: ([fallback, v]) => (truthy(v) ? v : fallback),
  empty: ([v]) => !truthy(v),
  ternary: ([yes, no, cond]) => (truthy(cond) ? yes : no),
  required: ([message, v], where) => {
    if (v === null || v === undefined || v === '') throw new Error(`${String(message)} (${where})`);
    return v;
  },
  fail: ([message], where) => {
    throw new Error(`${String(message)} (${where})`);
  },
  quote: (args) => args.map((v) => JSON.stringify(print(v))).join(' '),
  squote: (args) => args.map((v) => `'${print(v)}'`).join(' '),
  print: (args) => args.map(print).join(''),
  printf: ([format, ...args]) => sprintf(String(format), args),
  toString: (args: Value[]) => print(args[0]),
  int: ([v]) => Math.trunc(num(v)),
  upper: ([v]) => print(v).toUpperCase(),
  lower: ([v]) => print(v).toLowerCase(),
  trim: ([v]) => print(v).trim(),
  trimSuffix: ([suffix, v]) => (print(v).endsWith(String(suffix)) ? print(v).slice(0, -String(suffix).length) : print(v)),
  trunc: ([n, v]) => print(v).slice(0, num(n)),
  replace: ([from, to, v]) => print(v).split(String(from)).join(String(to)),
  contains: ([needle, v]) => print(v).includes(String(needle)),
  hasPrefix: ([prefix, v]) => print(v).startsWith(String(prefix)),
  join: ([sep, list]) => (Array.isArray(list) ? list.map(print).join(String(sep)) : print(list)),
  urlquery: (args) => encodeURIComponent(args.map(print).join('')).replace(/%20/g, '+'),
  b64enc: ([v]) => Buffer.from(print(v)).toString('base64'),
  b64dec: ([v]) => Buffer.from(print(v), 'base64').toString('utf8'),
  sha256sum: ([v]) => createHash('sha256').update(print(v)).digest('hex'),
  randAlphaNum: ([n]) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    return [...randomBytes(num(n))].map((b) => alphabet[b % alphabet.length]).join('');
  },
  toYaml: ([v]) => toYaml(v),
  toJson: ([v]) => JSON.stringify(v ?? null),
  indent: ([n, v]) => indent(num(n), print(v)),
  nindent: ([n, v]) => `\n${indent(num(n), print(v))}`,
  list: (args) => args,
  append: ([list, v]) => [...(Array.isArray(list) ? list : []), v],
  concat: (lists) => lists.flatMap((l) => (Array.isArray(l) ? l : [])),
  uniq: ([list]) => (Array.isArray(list) ? [...new Set(list)] : []),
  // Sprig's merge: the left-most map wins, maps merge deeply (a copy here instead of Sprig's mutation).
  merge: (maps) => maps.reduceRight<Dict>((acc, m) => (isDict(m) ? deepMerge(acc, m) : acc), {}),
  dict: (args) => {
    const out: Dict = {};
    for (let i = 0; i < args.length; i += 2) out[print(args[i])] = args[i + 1];
    return out;
  },
  get: ([map, key]) => (isDict(map) && Object.hasOwn(map, print(key)) ? map[print(key)] : ''),
  hasKey: ([map, key]) => isDict(map) && Object.hasOwn(map, print(key)),
  keys: (maps) => maps.flatMap((m) => (isDict(m) ? Object.keys(m) : [])),
  sortAlpha: ([list]) => (Array.isArray(list) ? [...list].map(print).sort() : []),
  len: ([v]) => (Array.isArray(v) ? v.length : isDict(v) ? Object.keys(v).length : print(v).length),
  index: ([collection, ...keys], where) =>
    keys.reduce<Value>((c, k) => {
      if (Array.isArray(c)) return c[num(k)];
      if (isDict(c)) return c[print(k)];
      throw new Error(`can't index ${String(c)} (${where})`);
    }, collection),
  // Helm's lookup: resolved by the TemplateSet (RenderOptions.lookup).
  lookup: () => ({}),
};
