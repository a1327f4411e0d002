/**
 * Decides whether a regex from the service's OpenAPI document may run on the user's text.
 * V8 matches by backtracking, so a pattern such as `^(a+)+$` takes exponential time. A pattern is
 * accepted only if this conservative parser understands all of it and it is, in the sense of
 * Brüggemann-Klein and Wood, deterministic: anchored at both ends, no backreferences, lookarounds,
 * lazy or nested repetitions, no empty loops, and at every step at most one position of the pattern
 * can take the next character. Then every choice the engine makes is undone after at most one
 * character, and matching takes time linear in the input. Anything else is refused.
 */

/** Longest pattern considered; real field patterns are far shorter. */
export const MAX_SERVICE_PATTERN_LENGTH = 200;
/** Largest repetition count accepted in `{m,n}`: V8 unrolls counted repetitions. */
const MAX_REPEAT_COUNT = 100;

type Ranges = readonly (readonly [number, number])[];

type RegexNode =
  | { kind: 'char'; set: Ranges; position: number }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; alternatives: RegexNode[] }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number };

const MAX_CODE_POINT = 0x10ffff;
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function normalize(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function intersects(a: Ranges, b: Ranges): boolean {
  return a.some(([alo, ahi]) => b.some(([blo, bhi]) => alo <= bhi && blo <= ahi));
}

class Unsupported extends Error {}

const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/');
const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };
const CLASS_ESCAPES: Record<string, Ranges> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

/** Recursive descent over the supported subset; throws Unsupported on anything else. */
class PatternParser {
  private index = 0;
  positions = 0;

  constructor(private readonly source: string) {}

  parseAll(): RegexNode {
    const node = this.parseAlternation(0);
    if (this.index !== this.source.length) throw new Unsupported();
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.index];
  }

  private parseAlternation(groupDepth: number): RegexNode {
    const alternatives = [this.parseSequence(groupDepth)];
    while (this.peek() === '|') {
      // `^a|b$` anchors each branch separately: only alternatives inside a group are understood.
      if (groupDepth === 0) throw new Unsupported();
      this.index += 1;
      alternatives.push(this.parseSequence(groupDepth));
    }
    return alternatives.length === 1 ? alternatives[0] : { kind: 'alt', alternatives };
  }

  private parseSequence(groupDepth: number): RegexNode {
    const items: RegexNode[] = [];
    for (let next = this.peek(); next !== undefined && next !== '|' && next !== ')'; next = this.peek()) {
      items.push(this.parseQuantified(this.parseAtom(groupDepth)));
    }
    return { kind: 'seq', items };
  }

  private parseQuantified(atom: RegexNode): RegexNode {
    const next = this.peek();
    let min: number;
    let max: number;
    if (next === '*' || next === '+' || next === '?') {
      this.index += 1;
      [min, max] = next === '*' ? [0, Infinity] : next === '+' ? [1, Infinity] : [0, 1];
    } else if (next === '{') {
      const match = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(this.source.slice(this.index, this.index + 10));
      if (!match) throw new Unsupported();
      this.index += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === undefined ? Infinity : Number(match[3]);
      if (min > MAX_REPEAT_COUNT || (max !== Infinity && (max > MAX_REPEAT_COUNT || max < min)))
        throw new Unsupported();
    } else {
      return atom;
    }
    if (this.peek() === '?') throw new Unsupported(); // lazy
    if (nullable(atom)) throw new Unsupported(); // an empty loop
    // A repetition inside a repetition lets the engine split one run of characters in many ways.
    if (max > 1 && containsRepeat(atom)) throw new Unsupported();
    return { kind: 'repeat', body: atom, min, max };
  }

  private charNode(set: Ranges): RegexNode {
    this.positions += 1;
    return { kind: 'char', set: normalize(set), position: this.positions };
  }

  private parseAtom(groupDepth: number): RegexNode {
    const char = this.peek();
    if (char === '(') {
      this.index += 1;
      if (this.peek() === '?') {
        if (this.source[this.index + 1] !== ':') throw new Unsupported(); // lookarounds, named groups
        this.index += 2;
      }
      const inner = this.parseAlternation(groupDepth + 1);
      if (this.peek() !== ')') throw new Unsupported();
      this.index += 1;
      return inner;
    }
    if (char === '[') return this.charNode(this.parseClass());
    if (char === '.') {
      this.index += 1;
      return this.charNode(complement(LINE_TERMINATORS));
    }
    if (char === '\\') return this.charNode(this.parseEscape(false));
    if (char === undefined || SYNTAX_CHARACTERS.has(char)) throw new Unsupported();
    return this.charNode(this.literal());
  }

  private literal(): Ranges {
    const code = this.source.codePointAt(this.index)!;
    this.index += code > 0xffff ? 2 : 1;
    return [[code, code]];
  }

  private parseEscape(inClass: boolean): Ranges {
    const escaped = this.source[this.index + 1];
    this.index += 2;
    if (escaped === undefined) throw new Unsupported();
    const classEscape = CLASS_ESCAPES[escaped];
    if (classEscape) return classEscape;
    const control = CONTROL_ESCAPES[escaped];
    if (control !== undefined) return [[control, control]];
    if (SYNTAX_CHARACTERS.has(escaped) || (inClass && escaped === '-')) {
      const code = escaped.charCodeAt(0);
      return [[code, code]];
    }
    throw new Unsupported(); // backreferences, \b, \p{…}, \u…, \x…, \c…
  }

  private parseClass(): Ranges {
    this.index += 1;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.index += 1;
    }
    const members: [number, number][] = [];
    for (;;) {
      const char = this.peek();
      if (char === undefined || char === '[') throw new Unsupported();
      if (char === ']') break;
      const start = this.classMember();
      if (this.peek() === '-' && this.source[this.index + 1] !== ']') {
        this.index += 1;
        const end = this.classMember();
        if (start.length !== 1 || end.length !== 1) throw new Unsupported();
        const [low, high] = [start[0][0], end[0][0]];
        if (start[0][0] !== start[0][1] || end[0][0] !== end[0][1] || low > high) throw new Unsupported();
        members.push([low, high]);
      } else {
        members.push(...start.map(([lo, hi]) => [lo, hi] as [number, number]));
      }
    }
    this.index += 1;
    if (!negated && members.length === 0) throw new Unsupported(); // `[]` never matches
    return negated ? complement(members) : members;
  }

  private classMember(): Ranges {
    const char = this.peek();
    if (char === '\\') return this.parseEscape(true);
    if (char === undefined || char === '[' || char === ']') throw new Unsupported();
    return this.literal();
  }
}

function nullable(node: RegexNode): boolean {
  switch (node.kind) {
    case 'char':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.alternatives.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
  }
}

function containsRepeat(node: RegexNode): boolean {
  switch (node.kind) {
    case 'char':
      return false;
    case 'seq':
      return node.items.some(containsRepeat);
    case 'alt':
      return node.alternatives.some(containsRepeat);
    case 'repeat':
      return true;
  }
}

interface Glushkov {
  nullable: boolean;
  first: RegexNode[];
  last: RegexNode[];
}

/** First, last and follow sets of the positions (Glushkov); `follow` is filled in as it goes. */
function glushkov(node: RegexNode, follow: Map<RegexNode, Set<RegexNode>>): Glushkov {
  const addFollow = (from: RegexNode[], to: RegexNode[]) => {
    for (const position of from) for (const next of to) follow.get(position)!.add(next);
  };
  switch (node.kind) {
    case 'char':
      follow.set(node, new Set());
      return { nullable: false, first: [node], last: [node] };
    case 'alt': {
      const parts = node.alternatives.map((alternative) => glushkov(alternative, follow));
      // Two empty branches give the engine two identical ways forward.
      if (parts.filter((part) => part.nullable).length > 1) throw new Unsupported();
      return {
        nullable: parts.some((part) => part.nullable),
        first: parts.flatMap((part) => part.first),
        last: parts.flatMap((part) => part.last),
      };
    }
    case 'seq': {
      let first: RegexNode[] = [];
      let last: RegexNode[] = [];
      let allNullable = true;
      for (const item of node.items) {
        const part = glushkov(item, follow);
        addFollow(last, part.first);
        if (allNullable) first = [...first, ...part.first];
        last = part.nullable ? [...last, ...part.last] : part.last;
        allNullable &&= part.nullable;
      }
      return { nullable: allNullable, first, last };
    }
    case 'repeat': {
      const part = glushkov(node.body, follow);
      if (node.max > 1) addFollow(part.last, part.first);
      return { nullable: node.min === 0 || part.nullable, first: part.first, last: part.last };
    }
  }
}

function deterministic(candidates: Iterable<RegexNode>): boolean {
  const list = [...candidates] as { set: Ranges }[];
  for (let i = 0; i < list.length; i += 1) {
    for (let j = i + 1; j < list.length; j += 1) if (intersects(list[i].set, list[j].set)) return false;
  }
  return true;
}

/** True only for patterns that V8 matches in time linear in the input (with the `u` flag, as the validator runs them). */
export function isLinearServicePattern(pattern: unknown): pattern is string {
  if (typeof pattern !== 'string' || pattern.length > MAX_SERVICE_PATTERN_LENGTH) return false;
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.length < 2) return false;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  try {
    const tree = new PatternParser(pattern.slice(1, -1)).parseAll();
    const follow = new Map<RegexNode, Set<RegexNode>>();
    const root = glushkov(tree, follow);
    if (!deterministic(root.first)) return false;
    for (const next of follow.values()) if (!deterministic(next)) return false;
    return true;
  } catch (error) {
    if (error instanceof Unsupported) return false;
    throw error;
  }
}
