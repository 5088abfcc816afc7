// Macros (C99 6.10.3): their definitions, and the replacement of one invocation: parameters
// substituted (pre-expanded, or raw next to # and ##), # stringizing, ## pasting, then the hide
// set of the invocation added to every token (Prosser's algorithm, as in C99's rescanning rule:
// a macro's name is never expanded again inside its own replacement).
import { errorAt } from './error';
import { tokenize } from './lex';
import { Token, type HideSet } from './token';

export interface Macro {
  name: string;
  /** Parameter names of a function-like macro (the variadic one last); undefined: object-like. */
  params: string[] | undefined;
  variadic: boolean;
  body: Token[];
  /** Where it was defined (for "redefined" warnings). */
  at: Token | undefined;
  /** Dynamic macros (__FILE__, __LINE__, __COUNTER__): the replacement of one use. */
  dynamic?: (use: Token) => Token[];
}

/** Parses the tokens after `#define`. */
export function parseDefine(line: Token[], at: Token): Macro {
  const name = line[0];
  if (!name) errorAt(at, 'no macro name given in #define directive');
  if (name.kind !== 'ident') errorAt(name, `macro names must be identifiers, not '${name.text}'`);
  if (name.text === 'defined') errorAt(name, "'defined' cannot be used as a macro name");
  const lp = line[1];
  if (!lp || !lp.is('(') || lp.hasSpace) return checkBody({ name: name.text, params: undefined, variadic: false, body: line.slice(1), at: name });
  const params: string[] = [];
  let variadic = false;
  let i = 2;
  if (line[i]?.is(')')) i++;
  else {
    for (;;) {
      const p = line[i++];
      if (!p) errorAt(lp, `missing ')' in the parameter list of macro '${name.text}'`);
      if (p.is('...')) {
        params.push('__VA_ARGS__');
        variadic = true;
      } else if (p.kind === 'ident') {
        if (p.text === '__VA_ARGS__') errorAt(p, '__VA_ARGS__ can only appear in the expansion of a C99 variadic macro');
        if (params.includes(p.text)) errorAt(p, `duplicate macro parameter '${p.text}'`);
        params.push(p.text);
        if (line[i]?.is('...')) { // GNU named variadic parameter: args...
          variadic = true;
          i++;
        }
      } else errorAt(p, `invalid token '${p.text}' in the parameter list of macro '${name.text}'`);
      const sep = line[i++];
      if (sep?.is(')')) break;
      if (variadic || !sep?.is(',')) errorAt(sep ?? p, `expected ',' or ')' in the parameter list of macro '${name.text}'`);
    }
  }
  return checkBody({ name: name.text, params, variadic, body: line.slice(i), at: name });
}

function checkBody(m: Macro): Macro {
  const b = m.body;
  if (b.length && b[0].is('##')) errorAt(b[0], "'##' cannot appear at the start of a macro expansion");
  if (b.length && b[b.length - 1].is('##')) errorAt(b[b.length - 1], "'##' cannot appear at the end of a macro expansion");
  if (m.params) {
    for (let i = 0; i < b.length; i++) {
      if (b[i].is('#') && !(b[i + 1] && (m.params.includes(b[i + 1].text) || b[i + 1].text === '__VA_OPT__'))) errorAt(b[i], `'#' is not followed by a macro parameter in macro '${m.name}'`);
    }
  }
  return m;
}

/** Two definitions are the same when parameters, tokens and their spacing match (C99 6.10.3p2). */
export function sameDefinition(a: Macro, b: Macro): boolean {
  if ((a.params === undefined) !== (b.params === undefined) || a.variadic !== b.variadic) return false;
  if (a.params && a.params.join(',') !== b.params!.join(',')) return false;
  if (a.body.length !== b.body.length) return false;
  return a.body.every((t, i) => t.text === b.body[i].text && (i === 0 || t.hasSpace === b.body[i].hasSpace));
}

/** The empty argument next to ## (C99 6.10.3.3: a placemarker). */
const PLACEMARKER = new Token('other', '', '', 0, 0, false, false);

export interface Invocation {
  macro: Macro;
  /** The macro's name where it was used. */
  use: Token;
  /** The arguments as written (function-like macros). */
  args: Token[][];
  /** A variadic macro used without its variable arguments: F(a) for F(a, ...) (not F(a,)). */
  vaOmitted: boolean;
  /** Fully macro-expands one argument on its own (C99 6.10.3.1). */
  expand: (toks: Token[]) => Token[];
  /** The invocation's hide set (before adding the macro's own name). */
  hideset: HideSet | undefined;
}

/** The replacement list of one invocation, with its hide set and origin on every token. */
export function replace(inv: Invocation): Token[] {
  const { macro: m, use } = inv;
  const expanded: (Token[] | undefined)[] = [];
  const argOf = (t: Token | undefined): number => (m.params && t?.kind === 'ident' ? m.params.indexOf(t.text) : -1);
  const expandedArg = (k: number) => (expanded[k] ??= inv.expand(inv.args[k]));
  const vaHasTokens = () => m.variadic && expandedArg(m.params!.length - 1).length > 0;

  const subst = (body: Token[]): Token[] => {
    const out: Token[] = [];
    for (let i = 0; i < body.length; i++) {
      const t = body[i];
      const next = body[i + 1];
      // # param: the argument as written, as a string literal.
      if (m.params && t.is('#') && next) {
        const k = argOf(next);
        if (k >= 0) {
          out.push(stringize(inv.args[k], t));
          i++;
        } else { // # __VA_OPT__(...)
          const v = vaOpt(body, i + 1);
          out.push(stringize(vaHasTokens() ? subst(v.content) : [], t));
          i = v.end - 1;
        }
        continue;
      }
      // lhs ## rhs: the last token so far pasted with the first of the right operand.
      if (t.is('##')) {
        if (!next) errorAt(use, `'##' cannot appear at the end of __VA_OPT__ in macro '${m.name}'`);
        let rhs: Token[];
        let skip = 1;
        const k = argOf(next);
        if (k >= 0) {
          // GNU: `, ## __VA_ARGS__` drops the comma when the variable arguments are left out
          // (clang keeps it for F(a,): present but empty).
          if (m.variadic && k === m.params!.length - 1 && out[out.length - 1]?.is(',')) {
            if (inv.vaOmitted) out.pop();
            else out.push(...copyArg(inv.args[k], next));
            i++;
            continue;
          }
          rhs = inv.args[k].length ? copyArg(inv.args[k], next) : [PLACEMARKER];
        } else if (next.is('#') && m.params && argOf(body[i + 2]) >= 0) {
          rhs = [stringize(inv.args[argOf(body[i + 2])], next)];
          skip = 2;
        } else if (next.text === '__VA_OPT__' && m.variadic) {
          const v = vaOpt(body, i + 1);
          rhs = vaHasTokens() ? subst(v.content) : [];
          if (rhs.length === 0) rhs = [PLACEMARKER];
          skip = v.end - i - 1;
        } else {
          rhs = [next.copy()];
        }
        const lhs = out.pop() ?? PLACEMARKER;
        out.push(paste(lhs, rhs[0], use, m.name), ...rhs.slice(1));
        i += skip;
        continue;
      }
      if (t.text === '__VA_OPT__' && m.variadic && next?.is('(')) {
        const v = vaOpt(body, i);
        const r = vaHasTokens() ? subst(v.content) : [];
        if (r.length) r[0].hasSpace = t.hasSpace;
        out.push(...(r.length === 0 && body[v.end]?.is('##') ? [PLACEMARKER] : r));
        i = v.end - 1;
        continue;
      }
      const k = argOf(t);
      if (k >= 0) {
        // Next to ##: the argument as written (a placemarker when empty); else pre-expanded.
        if (next?.is('##')) out.push(...(inv.args[k].length ? copyArg(inv.args[k], t) : [PLACEMARKER]));
        else out.push(...copyArg(expandedArg(k), t));
        continue;
      }
      out.push(t.copy());
    }
    return out;
  };

  const body = m.dynamic ? m.dynamic(use) : subst(m.body);
  const hs = withName(inv.hideset, m.name);
  const origin = use.origin ?? use;
  const out: Token[] = [];
  for (const t of body) {
    if (t === PLACEMARKER) continue;
    t.hideset = t.hideset ? union(t.hideset, hs) : hs;
    t.origin = origin;
    t.atBol = false;
    out.push(t);
  }
  if (out.length) {
    out[0].hasSpace = use.hasSpace;
    out[0].atBol = use.atBol;
  }
  return out;
}

/** `__VA_OPT__ ( content )` starting at body[i]: the content and the index after ')'. */
function vaOpt(body: Token[], i: number): { content: Token[]; end: number } {
  const t = body[i];
  if (t?.text !== '__VA_OPT__' || !body[i + 1]?.is('(')) errorAt(t ?? body[0], "'#' is not followed by a macro parameter");
  let depth = 0;
  for (let k = i + 1; k < body.length; k++) {
    if (body[k].is('(')) depth++;
    else if (body[k].is(')') && --depth === 0) return { content: body.slice(i + 2, k), end: k + 1 };
  }
  return errorAt(t, "unterminated __VA_OPT__: missing ')'");
}

/** Copies of an argument's tokens, the first spaced like the parameter it replaces. */
function copyArg(arg: Token[], param: Token): Token[] {
  const out = arg.map((t) => t.copy());
  if (out.length) out[0].hasSpace = param.hasSpace;
  return out;
}

/** `#x`: the argument's spelling as a string literal, with \ and " escaped inside literals. */
export function stringize(arg: Token[], hash: Token): Token {
  let s = '';
  arg.forEach((t, i) => {
    if (i > 0 && (t.hasSpace || t.atBol)) s += ' ';
    s += t.kind === 'string' || t.kind === 'char' ? t.text.replace(/[\\"]/g, '\\$&') : t.text;
  });
  const r = new Token('string', `"${s}"`, hash.file, hash.line, hash.col, hash.hasSpace, false);
  return r;
}

/** `a ## b`: the two spellings must form one valid preprocessing token (else an error at the macro's use). */
export function paste(lhs: Token, rhs: Token, use: Token, macro: string): Token {
  if (lhs === PLACEMARKER) return rhs;
  if (rhs === PLACEMARKER) return lhs;
  const text = lhs.text + rhs.text;
  let toks: Token[] = [];
  try {
    toks = tokenize(text, lhs.file);
  } catch {
    // an unterminated comment or literal: not one token either
  }
  if (toks.length !== 2 || toks[0].kind === 'other' || toks[0].text !== text) {
    errorAt(use, `pasting "${lhs.text}" and "${rhs.text}" does not give a valid preprocessing token (in macro '${macro}')`);
  }
  const t = new Token(toks[0].kind, text, lhs.file, lhs.line, lhs.col, lhs.hasSpace, false);
  t.hideset = lhs.hideset;
  return t;
}

function withName(hs: HideSet | undefined, name: string): HideSet {
  if (hs?.has(name)) return hs;
  const s = new Set(hs);
  s.add(name);
  return s;
}

function union(a: HideSet, b: HideSet): HideSet {
  if (a === b) return a;
  let grow = false;
  for (const x of b) if (!a.has(x)) grow = true;
  if (!grow) return a;
  const s = new Set(a);
  for (const x of b) s.add(x);
  return s;
}

export function intersect(a: HideSet | undefined, b: HideSet | undefined): HideSet | undefined {
  if (!a || !b) return undefined;
  if (a === b) return a;
  const s = new Set<string>();
  for (const x of a) if (b.has(x)) s.add(x);
  return s.size ? s : undefined;
}
