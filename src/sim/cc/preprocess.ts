// The preprocessor (C99 6.10): directives, conditional groups, #include over the in-memory file
// system, and macro expansion. Its output is the token list the C parser reads: no newlines, no
// directives; #pragma lines and _Pragma operators become one 'pragma' token each.
//
// Input is a stack of frames: the files being read (an #include pushes one) and, above them,
// the replacement lists of macros being rescanned. Directives are only recognised in file frames.
import { CcError, errorAt, type CcWarning } from './error';
import { evalIfExpr } from './expr';
import { overlay, resolveInclude, type IncludePaths, type SourceFiles } from './fs';
import { SYSTEM_HEADERS, SYSTEM_INCLUDE_DIR } from './headers';
import { Lexer, tokenize } from './lex';
import { intersect, parseDefine, replace, sameDefinition, type Macro } from './macro';
import { hasAttribute, hasBuiltin, hasFeature, predefinedSource } from './predefined';
import { Token } from './token';

export interface PreprocessOptions {
  /** The project's files (generated program, kernel library, runtime, libc). */
  files: SourceFiles;
  /** -I directories. */
  includePaths?: readonly string[];
  /** System directories searched after ours is not: they come before our freestanding headers. */
  systemPaths?: readonly string[];
  /** -D: NAME or NAME=VALUE. */
  defines?: readonly string[];
  /** -U: NAME (applied after the -D's). */
  undefines?: readonly string[];
  /** __STDC_VERSION__: 199901L or 201112L (the default). */
  std?: 'c99' | 'c11';
  /** Assembly with the preprocessor (.S): a line '# text' that is no directive is a comment. */
  assembler?: boolean;
}

export interface PreprocessResult {
  /** The expanded tokens, ending with an 'eof' token. */
  tokens: Token[];
  warnings: CcWarning[];
  /** Every file read, the main file first (for object caches keyed by content). */
  files: string[];
}

/** Preprocesses one translation unit. Throws a CcError (file:line:col: message) on the first error. */
export function preprocess(path: string, opts: PreprocessOptions): PreprocessResult {
  const s = preprocessStream(path, opts);
  const tokens: Token[] = [];
  for (let t = s.next(); ; t = s.next()) {
    tokens.push(t);
    if (t.kind === 'eof') return { tokens, warnings: [...s.warnings], files: [...s.files] };
  }
}

/** The preprocessor's output read one token at a time (the parser's input; 'eof' repeats at the end). */
export interface TokenStream {
  next(): Token;
  /**
   * The elements `[-]digits ,` of a big constant table read straight from the file being read,
   * without tokens (Lexer.readInts): up to `max` of them, each value given to `put`; returns the
   * count (0 when the next tokens come from a macro, or are anything else).
   */
  readInts(max: number, put: (v: number) => void): number;
  /** So far: the warnings, and every file read. */
  readonly warnings: readonly CcWarning[];
  readonly files: readonly string[];
}

/** Preprocesses one translation unit lazily: a file's tokens are made as the parser reads them. */
export function preprocessStream(path: string, opts: PreprocessOptions): TokenStream {
  const pp = new Preprocessor(opts);
  pp.start(path);
  return { next: () => pp.nextExpanded(), readInts: (max, put) => pp.readInts(max, put), warnings: pp.warnings, files: pp.filesRead };
}

interface FileState {
  path: string;
  lexer: Lexer;
  /** The conditional stack's height when the file was entered. */
  condBase: number;
  /** Include guard detection: nothing read yet; the #ifndef X opening the file; its #endif seen; nothing after. */
  atStart: boolean;
  guard: { name: string; cond: Cond } | undefined;
  guardClosed: boolean;
  guardSpoilt: boolean;
  /** A skipped group ended at a directive whose '#' has been read: run it next. */
  directivePending: boolean;
}

interface Frame {
  /** A macro's replacement list being rescanned (file frames read their lexer instead). */
  toks: Token[];
  pos: number;
  /** Set for a file's frame. */
  file: FileState | undefined;
}

interface Cond {
  directive: Token;
  /** Some group of this #if chain has been taken. */
  taken: boolean;
  /** #else seen. */
  inElse: boolean;
}

const MAX_INCLUDE_DEPTH = 200;

class Preprocessor {
  private readonly fs: SourceFiles;
  private readonly paths: IncludePaths;
  private readonly macros = new Map<string, Macro>();
  private frames: Frame[] = [];
  private readonly conds: Cond[] = [];
  readonly warnings: CcWarning[] = [];
  readonly filesRead: string[] = [];
  private readonly guards = new Map<string, string>();
  private readonly once = new Set<string>();
  private readonly pushed = new Map<string, (Macro | undefined)[]>();
  private counter = 0;
  /** Expanding an #if line. */
  private inIf = false;
  private baseFile = '';
  private eofTok = new Token('eof', '', '', 0, 0, false, true);

  constructor(private readonly opts: PreprocessOptions) {
    this.fs = overlay(opts.files, { read: (p) => (p.startsWith(`${SYSTEM_INCLUDE_DIR}/`) ? SYSTEM_HEADERS.get(p.slice(SYSTEM_INCLUDE_DIR.length + 1)) : undefined) });
    this.paths = { user: opts.includePaths ?? [], system: [...(opts.systemPaths ?? []), SYSTEM_INCLUDE_DIR] };
  }

  start(path: string): void {
    const text = this.fs.read(path);
    if (text === undefined) throw new CcError({ file: path, line: 0, col: 0 }, `no such file: ${path}`);
    this.baseFile = path;
    this.defineDynamic();
    // The predefined macros and the command line's -D / -U, read like a file (as GCC does).
    this.pushFile('<built-in>', predefinedSource(this.opts));
    this.expandAll();
    this.filesRead.push(path);
    this.pushFile(path, text);
  }

  // ---- reading tokens ------------------------------------------------------------------

  private pushFile(path: string, text: string, at?: Token): void {
    if (at && this.frames.filter((f) => f.file).length >= MAX_INCLUDE_DEPTH) errorAt(at, `#include nested too deeply (${MAX_INCLUDE_DEPTH} levels)`);
    const file: FileState = { path, lexer: new Lexer(text, path), condBase: this.conds.length, atStart: true, guard: undefined, guardClosed: false, guardSpoilt: false, directivePending: false };
    this.frames.push({ toks: [], pos: 0, file });
  }

  /** The next token, directives done; 'eof' when the input (or an isolated list) ends. */
  private next(): Token {
    for (;;) {
      const f = this.frames[this.frames.length - 1];
      if (!f) return this.eofTok;
      const file = f.file;
      if (!file) {
        if (f.pos < f.toks.length) return f.toks[f.pos++];
        this.frames.pop(); // a macro's replacement list is done
        continue;
      }
      if (file.directivePending) {
        file.directivePending = false;
        const r = this.directive(f);
        if (r) return r;
        continue;
      }
      const t = file.lexer.next();
      if (t.kind === 'eof') {
        this.endOfFile(file);
        this.frames.pop();
        this.eofTok = t;
        continue;
      }
      if (file.guardClosed) file.guardSpoilt = true;
      if (t.atBol && t.kind === 'punct' && t.text === '#') {
        const r = this.directive(f);
        file.atStart = false;
        if (r) return r;
        continue;
      }
      file.atStart = false;
      return t;
    }
  }

  private endOfFile(f: FileState): void {
    if (this.conds.length > f.condBase) {
      const c = this.conds[this.conds.length - 1];
      errorAt(c.directive, `unterminated #${c.directive.text}`);
    }
    if (f.guard && f.guardClosed && !f.guardSpoilt) this.guards.set(f.path, f.guard.name);
  }

  /** The next raw token if it is '(' (without reading past a file's end or into a directive). */
  private peekParen(): boolean {
    for (let k = this.frames.length - 1; k >= 0; k--) {
      const f = this.frames[k];
      if (f.file) return f.file.lexer.peek().is('(');
      if (f.pos < f.toks.length) return f.toks[f.pos].is('(');
    }
    return false;
  }

  /** The rest of a directive's line (the lexer is left before the next line's first token). */
  private restOfLine(f: Frame): Token[] {
    const lx = f.file!.lexer;
    const line: Token[] = [];
    while (!lx.peek().atBol) line.push(lx.next());
    return line;
  }

  /** TokenStream.readInts: only when the input is a file's own text (no macro list being read). */
  readInts(max: number, put: (v: number) => void): number {
    const f = this.frames[this.frames.length - 1];
    const file = f?.file;
    if (!file || file.directivePending || this.inIf) return 0;
    const n = file.lexer.readInts(max, put);
    if (n > 0) {
      if (file.guardClosed) file.guardSpoilt = true;
      file.atStart = false;
    }
    return n;
  }

  // ---- macro expansion -----------------------------------------------------------------

  /** The next fully expanded token ('eof' at the end of the input). */
  nextExpanded(): Token {
    for (;;) {
      const t = this.next();
      // `defined` that a macro produced in an #if line (GCC and clang accept it): its operand is not expanded.
      if (this.inIf && t.kind === 'ident' && t.text === 'defined') return this.definedOperator(t);
      if (t.kind === 'ident' && this.expandMacro(t)) continue;
      if (t.kind === 'other' && (t.text === '"' || t.text === "'")) errorAt(t, `missing terminating ${t.text} character`);
      return t;
    }
  }

  private definedOperator(t: Token): Token {
    let id = this.next();
    const paren = id.is('(');
    if (paren) id = this.next();
    if (id.kind !== 'ident') errorAt(id.kind === 'eof' ? t : id, "macro name missing after 'defined'");
    if (paren && !this.next().is(')')) errorAt(id, "missing ')' after 'defined'");
    return new Token('number', this.isDefined(id.text) ? '1' : '0', t.file, t.line, t.col, t.hasSpace, false);
  }

  /** Reads and expands until the current input ends. */
  private expandAll(): Token[] {
    const out: Token[] = [];
    for (let t = this.nextExpanded(); t.kind !== 'eof'; t = this.nextExpanded()) out.push(t);
    return out;
  }

  /** Fully expands a token list on its own (a macro argument, an #if line). */
  private expandList(toks: Token[]): Token[] {
    const saved = this.frames;
    const savedEof = this.eofTok;
    this.frames = [{ toks, pos: 0, file: undefined }];
    try {
      return this.expandAll();
    } finally {
      this.frames = saved;
      this.eofTok = savedEof;
    }
  }

  /** If `t` names a macro that may expand here, pushes its replacement and returns true. */
  private expandMacro(t: Token): boolean {
    if (t.text === '_Pragma' && !this.macros.has('_Pragma')) return this.pragmaOperator(t);
    const m = this.macros.get(t.text);
    if (!m || t.hideset?.has(t.text)) return false;
    let toks: Token[];
    if (m.params === undefined) {
      toks = replace({ macro: m, use: t, args: [], vaOmitted: false, expand: (x) => x, hideset: t.hideset });
    } else {
      if (!this.peekParen()) return false;
      this.next();
      const { args, rparen, vaOmitted } = this.collectArgs(m, t);
      toks = replace({ macro: m, use: t, args, vaOmitted, expand: (x) => this.expandList(x), hideset: intersect(t.hideset, rparen.hideset) });
    }
    if (toks.length) this.frames.push({ toks, pos: 0, file: undefined });
    return true;
  }

  /** The arguments of a function-like macro, after its '(' (C99 6.10.3p10-12). */
  private collectArgs(m: Macro, use: Token): { args: Token[][]; rparen: Token; vaOmitted: boolean } {
    const params = m.params!;
    const args: Token[][] = [[]];
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof') errorAt(use, `unterminated argument list invoking macro '${m.name}'`);
      if (t.kind === 'punct') {
        if (t.text === '(') depth++;
        else if (t.text === ')') {
          if (depth === 0) {
            const vaOmitted = this.checkArgCount(m, use, args);
            return { args, rparen: t, vaOmitted };
          }
          depth--;
        } else if (t.text === ',' && depth === 0 && !(m.variadic && args.length === params.length)) {
          args.push([]);
          continue;
        }
      }
      args[args.length - 1].push(t);
    }
  }

  /** Checks the count; returns true when a variadic macro's variable arguments are left out (F(a) for F(a, ...)). */
  private checkArgCount(m: Macro, use: Token, args: Token[][]): boolean {
    const n = m.params!.length;
    if (n === 0 && args.length === 1 && args[0].length === 0) {
      args.pop();
      return false;
    }
    const omitted = m.variadic && args.length === n - 1;
    if (omitted) args.push([]);
    if (args.length !== n) {
      const takes = m.variadic ? `at least ${n - 1}` : `${n}`;
      errorAt(use, `wrong number of macro arguments: '${m.name}' takes ${takes} argument${takes === '1' ? '' : 's'}, got ${args.length}`);
    }
    return omitted;
  }

  /** `_Pragma ( string-literal )` (C99 6.10.9): the same as a #pragma line with the string's text. */
  private pragmaOperator(t: Token): boolean {
    const lp = this.next();
    if (!lp.is('(')) errorAt(lp.kind === 'eof' ? t : lp, "_Pragma takes a parenthesized string literal");
    const s = this.next();
    const rp = this.next();
    if (s.kind !== 'string' || !rp.is(')')) errorAt(s.kind === 'eof' ? t : s, '_Pragma takes a parenthesized string literal');
    const body = s.text.slice(s.text.indexOf('"') + 1, -1).replace(/\\(["\\])/g, '$1');
    const toks = tokenize(body, t.file).slice(0, -1);
    const p = this.pragma(toks, t);
    if (p) {
      p.origin = t.origin;
      this.frames.push({ toks: [p], pos: 0, file: undefined });
    }
    return true;
  }

  // ---- directives ----------------------------------------------------------------------

  /** Runs the directive after a line's '#'; returns a token to emit (a pragma) or undefined. */
  private directive(f: Frame): Token | undefined {
    const lx = f.file!.lexer;
    if (lx.peek().atBol) return undefined; // the null directive
    const name = lx.next();
    if (name.kind === 'number') { // GNU line marker: # 12 "file"
      this.lineDirective(f, [name, ...this.restOfLine(f)], name);
      return undefined;
    }
    const line = this.restOfLine(f);
    switch (name.text) {
      case 'include': this.include(line, name); return undefined;
      case 'define': this.define(parseDefine(line, name)); return undefined;
      case 'undef': this.undef(line, name); return undefined;
      case 'if': this.openIf(f, name, this.evalIf(line, name)); return undefined;
      case 'ifdef':
      case 'ifndef': {
        const id = line[0];
        if (!id || id.kind !== 'ident') errorAt(id ?? name, `macro name missing after #${name.text}`);
        const atStart = f.file!.atStart;
        this.openIf(f, name, this.isDefined(id.text) === (name.text === 'ifdef'));
        if (atStart && name.text === 'ifndef' && line.length === 1) f.file!.guard = { name: id.text, cond: this.conds[this.conds.length - 1] };
        return undefined;
      }
      case 'elif':
      case 'else': {
        const c = this.conds[this.conds.length - 1];
        if (!c || this.conds.length <= f.file!.condBase) errorAt(name, `#${name.text} without #if`);
        if (c.inElse) errorAt(name, `#${name.text} after #else`);
        c.inElse = name.text === 'else';
        if (c === f.file!.guard?.cond) f.file!.guard = undefined;
        if (c.taken || (name.text === 'elif' && !this.evalIf(line, name))) this.skipGroup(f);
        else c.taken = true;
        return undefined;
      }
      case 'endif':
        if (this.conds.length <= f.file!.condBase) errorAt(name, '#endif without #if');
        if (this.conds.pop() === f.file!.guard?.cond) f.file!.guardClosed = true;
        return undefined;
      case 'line': this.lineDirective(f, this.expandList(line), name); return undefined;
      case 'pragma': return this.pragma(line, name) ?? undefined;
      case 'error': return errorAt(name, `#error ${lineText(line)}`.trimEnd());
      case 'warning':
        this.warnings.push({ pos: name, msg: `#warning ${lineText(line)}`.trimEnd() });
        return undefined;
      case 'ident':
      case 'sccs':
        return undefined;
    }
    if (this.opts.assembler) return undefined;
    return errorAt(name, `invalid preprocessing directive #${name.text}`);
  }

  private define(m: Macro): void {
    const old = this.macros.get(m.name);
    if (old && !old.dynamic && !sameDefinition(old, m)) this.warnings.push({ pos: m.at!, msg: `'${m.name}' macro redefined` });
    if (old?.dynamic || m.name === '__VA_ARGS__') this.warnings.push({ pos: m.at!, msg: `redefining builtin macro '${m.name}'` });
    this.macros.set(m.name, m);
  }

  private undef(line: Token[], at: Token): void {
    const id = line[0];
    if (!id || id.kind !== 'ident') errorAt(id ?? at, 'macro name missing after #undef');
    this.macros.delete(id.text);
  }

  private include(line: Token[], at: Token): void {
    let spec = line;
    if (spec.length && spec[0].kind !== 'string' && !spec[0].is('<')) spec = this.expandList(spec);
    const first = spec[0];
    if (!first) errorAt(at, '#include expects "FILENAME" or <FILENAME>');
    let name: string;
    let quoted: boolean;
    if (first.kind === 'string' && first.text.startsWith('"')) {
      name = first.text.slice(1, -1);
      quoted = true;
    } else if (first.is('<')) {
      const close = spec.findIndex((t) => t.is('>'));
      if (close < 0) errorAt(first, "missing terminating '>' in #include <FILENAME>");
      name = spec.slice(1, close).map((t, i) => (i > 0 && t.hasSpace ? ' ' : '') + t.text).join('');
      quoted = false;
    } else return errorAt(first, '#include expects "FILENAME" or <FILENAME>');
    const includer = this.currentFile();
    const path = resolveInclude(this.fs, name, quoted, includer, this.paths);
    if (path === undefined) errorAt(first, `'${name}' file not found`, quoted ? undefined : 'the freestanding headers are stdint.h, stddef.h, stdarg.h, stdbool.h, limits.h, stdalign.h, stdnoreturn.h, iso646.h and float.h');
    if (this.once.has(path)) return;
    const guard = this.guards.get(path);
    if (guard && this.macros.has(guard)) return;
    if (!this.filesRead.includes(path)) this.filesRead.push(path);
    this.pushFile(path, this.fs.read(path)!, first);
  }

  private currentFile(): string {
    for (let k = this.frames.length - 1; k >= 0; k--) if (this.frames[k].file) return this.frames[k].file!.path;
    return this.baseFile;
  }

  private openIf(f: Frame, directive: Token, cond: boolean): void {
    this.conds.push({ directive, taken: cond, inElse: false });
    if (!cond) this.skipGroup(f);
  }

  /**
   * Skips a group whose condition is false, without making its tokens, up to the #elif, #else
   * or #endif of the same level, which next() then runs (no recursion: a chain of a thousand
   * #elif is fine).
   */
  private skipGroup(f: Frame): void {
    const lx = f.file!.lexer;
    let depth = 0;
    for (;;) {
      const t = lx.peek();
      if (t.kind === 'eof') return;
      if (t.atBol && t.kind === 'punct' && t.text === '#') {
        lx.next();
        const d = lx.peek();
        if (d.atBol) continue;
        if (d.text === 'if' || d.text === 'ifdef' || d.text === 'ifndef') depth++;
        else if (d.text === 'endif' && depth > 0) depth--;
        else if ((d.text === 'endif' || d.text === 'elif' || d.text === 'else') && depth === 0) {
          f.file!.directivePending = true;
          return;
        }
      }
      lx.skipLine();
    }
  }

  /** The value of an #if / #elif line: defined and __has_* first, then macros, the rest 0. */
  private evalIf(line: Token[], at: Token): boolean {
    this.inIf = true;
    try {
      const toks = this.replaceQueries(this.expandList(this.replaceQueries(line, at)), at);
      return evalIfExpr(toks, at) !== 0n;
    } finally {
      this.inIf = false;
    }
  }

  /** `defined X`: a macro, or one of the #if queries (so `#ifdef __has_include` works). */
  private isDefined(name: string): boolean {
    return this.macros.has(name) || name in QUERIES;
  }

  /** Replaces `defined X`, `defined(X)` and `__has_include(...)`, `__has_builtin(x)`, ... by 0 or 1. */
  private replaceQueries(line: Token[], at: Token): Token[] {
    const out: Token[] = [];
    for (let i = 0; i < line.length; i++) {
      const t = line[i];
      const q = t.kind === 'ident' ? QUERIES[t.text] : undefined;
      if (!q) {
        out.push(t);
        continue;
      }
      let v: boolean;
      if (t.text === 'defined') {
        const paren = line[i + 1]?.is('(');
        const id = line[i + (paren ? 2 : 1)];
        if (!id || id.kind !== 'ident') errorAt(id ?? t, "macro name missing after 'defined'");
        if (paren && !line[i + 3]?.is(')')) errorAt(line[i + 3] ?? id, "missing ')' after 'defined'");
        v = this.isDefined(id.text);
        i += paren ? 3 : 1;
      } else {
        if (!line[i + 1]?.is('(')) errorAt(line[i + 1] ?? t, `missing '(' after '${t.text}'`);
        const close = line.findIndex((x, k) => k > i && x.is(')'));
        if (close < 0) errorAt(t, `missing ')' after '${t.text}'`);
        let arg = line.slice(i + 2, close);
        // For __has_include the ')' of the argument is the last on the line when <...> holds one.
        if (t.text === '__has_include' && arg[0]?.is('<')) {
          const gt = line.findIndex((x, k) => k > i && x.is('>'));
          const rp = gt < 0 ? -1 : line.findIndex((x, k) => k > gt && x.is(')'));
          if (rp < 0) errorAt(t, "missing '>' or ')' in __has_include(<FILENAME>)");
          arg = line.slice(i + 2, rp);
          i = rp;
        } else i = close;
        v = q.call(this, arg, t, at);
      }
      out.push(new Token('number', v ? '1' : '0', t.file, t.line, t.col, t.hasSpace, false));
    }
    return out;
  }

  /** __has_include("x") / __has_include(<x>). */
  hasInclude(arg: Token[], t: Token): boolean {
    const first = arg[0];
    if (!first) errorAt(t, '__has_include expects "FILENAME" or <FILENAME>');
    if (first.kind === 'string') return resolveInclude(this.fs, first.text.slice(1, -1), true, this.currentFile(), this.paths) !== undefined;
    if (!first.is('<') || !arg[arg.length - 1].is('>')) errorAt(first, '__has_include expects "FILENAME" or <FILENAME>');
    const name = arg.slice(1, -1).map((x, i) => (i > 0 && x.hasSpace ? ' ' : '') + x.text).join('');
    return resolveInclude(this.fs, name, false, this.currentFile(), this.paths) !== undefined;
  }

  private lineDirective(f: Frame, line: Token[], at: Token): void {
    const n = line[0];
    if (!n || n.kind !== 'number' || !/^[0-9]+$/.test(n.text)) errorAt(n ?? at, `#line directive requires a positive integer argument`);
    const name = line[1];
    if (name && name.kind !== 'string') errorAt(name, `invalid filename '${name.text}' in #line directive`);
    // The next line gets number n: at.line is the directive's own (presumed) line.
    f.file!.lexer.renumber(Number(n.text) - (at.line + 1), name?.text.slice(1, -1));
  }

  /** A #pragma line: `once` and `push_macro` / `pop_macro` are done here; the others become a token. */
  private pragma(line: Token[], at: Token): Token | undefined {
    const text = lineText(line);
    if (text === 'once') {
      this.once.add(this.currentFile());
      return undefined;
    }
    const pm = /^(push_macro|pop_macro)\s*\(\s*"(\w+)"\s*\)$/.exec(text);
    if (pm) {
      const stack = this.pushed.get(pm[2]) ?? [];
      if (pm[1] === 'push_macro') stack.push(this.macros.get(pm[2]));
      else if (stack.length) {
        const m = stack.pop();
        if (m) this.macros.set(pm[2], m);
        else this.macros.delete(pm[2]);
      }
      this.pushed.set(pm[2], stack);
      return undefined;
    }
    return new Token('pragma', text, at.file, at.line, at.col, true, true);
  }

  // ---- predefined macros ---------------------------------------------------------------

  private defineDynamic(): void {
    const dyn = (name: string, f: (use: Token) => Token) => this.macros.set(name, { name, params: undefined, variadic: false, body: [], at: undefined, dynamic: (u) => [f(u)] });
    const at = (u: Token) => u.origin ?? u;
    const str = (u: Token, s: string) => new Token('string', JSON.stringify(s), u.file, u.line, u.col, u.hasSpace, false);
    const num = (u: Token, n: number) => new Token('number', String(n), u.file, u.line, u.col, u.hasSpace, false);
    dyn('__FILE__', (u) => str(u, at(u).file));
    dyn('__LINE__', (u) => num(u, at(u).line));
    dyn('__COUNTER__', (u) => num(u, this.counter++));
    dyn('__BASE_FILE__', (u) => str(u, this.baseFile));
    dyn('__INCLUDE_LEVEL__', (u) => num(u, Math.max(0, this.frames.filter((f) => f.file).length - 1)));
  }
}

/** The #if queries, `defined` and clang's __has_*: each takes its argument tokens. */
const QUERIES: Record<string, (this: Preprocessor, arg: Token[], t: Token, at: Token) => boolean> = {
  defined: () => false, // handled inline: its argument is a bare name
  __has_include(arg, t) { return this.hasInclude(arg, t); },
  __has_builtin: (arg) => hasBuiltin(lineText(arg)),
  __has_attribute: (arg) => hasAttribute(lineText(arg)),
  __has_c_attribute: () => false,
  __has_cpp_attribute: () => false,
  __has_declspec_attribute: () => false,
  __has_feature: (arg) => hasFeature(lineText(arg)),
  __has_extension: (arg) => hasFeature(lineText(arg)),
};

/** A line's tokens as text, single-spaced where the source had space. */
export function lineText(line: Token[]): string {
  return line.map((t, i) => (i > 0 && t.hasSpace ? ' ' : '') + t.text).join('');
}

/** Renders tokens as text like `cc -E -P`: a line per source line, pragmas on their own lines. */
export function tokensToText(toks: Token[]): string {
  let s = '';
  let prev: Token | undefined;
  for (const t of toks) {
    if (t.kind === 'eof') break;
    if (t.kind === 'pragma') s += `\n#pragma ${t.text}\n`;
    else if (t.atBol && s !== '') s += `\n${t.text}`;
    else s += (t.hasSpace || (prev && wouldJoin(prev, t)) ? ' ' : '') + t.text;
    prev = t.kind === 'pragma' ? undefined : t;
  }
  return `${s}\n`;
}

/** Two adjacent tokens that would read back as one (x y, - -, 1 .2): the text needs a space. */
function wouldJoin(a: Token, b: Token): boolean {
  const word = (k: Token['kind']) => k === 'ident' || k === 'number' || k === 'char' || k === 'string';
  if (word(a.kind) && word(b.kind)) return true;
  return a.kind === 'punct' && b.kind === 'punct' || (a.kind === 'number' && b.text[0] === '.') || (a.kind === 'number' && /^[+-]/.test(b.text));
}
