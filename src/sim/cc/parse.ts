// The C99 parser and semantic analysis: reads the preprocessor's tokens and builds the typed
// tree of ast.ts. Types are resolved as each node is made; implicit conversions become casts;
// constant expressions are folded where C requires them (array sizes, case labels, enum values,
// static initialisers, which become bytes plus relocations right here, so a 2 MB weights array
// never becomes a tree). Each parse function carries its grammar rule as a comment.
import type { Attrs, BinOp, Expr, FuncDef, GlobalInit, LocalInit, Obj, Reloc, Stmt, TranslationUnit } from './ast';
import {
  BOOL, CHAR, INT, LLONG, LONG, SCHAR, SHORT, UCHAR, UINT, ULLONG, ULONG, USHORT, VOID,
  arrayOf, commonType, findMember, funcType, isArith, isFloat, isInteger, isPointer, isRecord, isScalar,
  layoutRecord, pointerTo, promote, promoteBitField, sameType, typeName, vectorOf, withConst, withVolatile, type CType, type Member,
} from './ctype';
import { evalConst, truncTo } from './consteval';
import { errorAt } from './error';
import { charValue, decodeEscapes } from './expr';
import type { TokenStream } from './preprocess';
import type { Token } from './token';

type ScopeEntry = { obj: Obj } | { typedef: CType } | { enumVal: bigint; ty: CType };

interface Scope {
  vars: Map<string, ScopeEntry>;
  tags: Map<string, CType>;
}

interface DeclSpec {
  ty: CType;
  isTypedef: boolean;
  isStatic: boolean;
  isExtern: boolean;
  isInline: boolean;
  attrs: Attrs;
}

export const FLOAT_MSG = 'floating point is not supported yet';

/**
 * Parses a preprocessed translation unit: a token list ending with 'eof', or the preprocessor's
 * stream (read as parsing goes, so a file's tokens never all sit in memory). `timing.preprocess`
 * gets the milliseconds spent waiting for the stream.
 */
export function parse(input: Token[] | TokenStream, timing?: { preprocess: number }): TranslationUnit {
  const p = new Parser(input);
  const unit = p.unit();
  if (timing) timing.preprocess = p.pullMs;
  return unit;
}

/** Tokens read from the stream at a time (fewer where a constant table may start). */
const BATCH = 256;
/** Sized arrays shorter than this read their elements as tokens (no batch ends at every element). */
const MIN_RAW_TABLE = 64;
/** Tokens the window keeps behind the parser before dropping them. */
const KEEP = 4096;

/** GCC's type of a vector comparison's lanes, by element size. */
const SIGNED_OF_SIZE: Record<number, CType> = { 1: SCHAR, 2: SHORT, 4: INT, 8: LLONG };

class Parser {
  /** The window of tokens read: toks[k] is token number base + k; pos counts from the unit's start. */
  private toks: Token[];
  private base = 0;
  private pos = 0;
  private readonly src: TokenStream | undefined;
  /** The stream's 'eof' is in the window. */
  private done: boolean;
  /** Positions that parsing may go back to are held: the window keeps what follows them. */
  private pins = 0;
  /** In arrayInit's loop over an integer table. */
  private inTable = false;
  pullMs = 0;
  private scopes: Scope[] = [{ vars: new Map(), tags: new Map() }];
  private globals: Obj[] = [];
  private globalByName = new Map<string, Obj>();
  /** The function being parsed; `name` is its __func__, made a string object on its first use. */
  private fn: { obj: Obj; def: FuncDef; name?: Obj } | undefined;
  private switches: Extract<Stmt, { k: 'switch' }>[] = [];
  private uniq = 0;
  private pendingPragmas: string[] = [];
  /** `#pragma pack`: the current cap on member alignment (0: none) and the pushed ones. */
  private pack = 0;
  private packStack: number[] = [];

  constructor(input: Token[] | TokenStream) {
    if (Array.isArray(input)) {
      this.toks = input;
      this.done = true;
    } else {
      this.toks = [];
      this.src = input;
      this.done = false;
    }
  }

  // ---- tokens ----

  /** Token number p (the last, 'eof', beyond the end). */
  private at(p: number): Token {
    const k = p - this.base;
    return k < this.toks.length ? this.toks[k] : this.fill(k);
  }

  /**
   * Reads the stream until window index k exists, a batch at a time. While arrayInit reads a big
   * table, a batch ends after an element (`12 ,`), so that the window soon ends where the parser
   * is and the table's other elements are read without tokens.
   */
  private fill(k: number): Token {
    const toks = this.toks;
    if (!this.done) {
      const t0 = performance.now();
      for (let n = 0; ; n++) {
        const t = this.src!.next();
        toks.push(t);
        if (t.kind === 'eof') { this.done = true; break; }
        if (toks.length > k && (n >= BATCH || (this.inTable && t.kind === 'punct' && t.text === ',' && toks[toks.length - 2]?.kind === 'number'))) break;
      }
      this.pullMs += performance.now() - t0;
    }
    return k < toks.length ? toks[k] : toks[toks.length - 1];
  }

  /** Drops the tokens well behind the parser (nothing pinned can go back to them). */
  private release(): void {
    if (!this.src || this.pins > 0 || this.pos - this.base < KEEP) return;
    this.toks = this.toks.slice(this.pos - this.base);
    this.base = this.pos;
  }

  private get tok(): Token { return this.at(this.pos); }
  private peek(n = 1): Token { return this.at(this.pos + n); }
  private next(): Token { const t = this.at(this.pos); if (t.kind !== 'eof') this.pos++; return t; }
  private is(s: string): boolean { const t = this.at(this.pos); return t.text === s && (t.kind === 'punct' || t.kind === 'ident'); }
  private consume(s: string): boolean { if (this.is(s)) { this.pos++; return true; } return false; }
  private skip(s: string, what?: string): Token {
    const t = this.tok;
    if (!this.is(s)) errorAt(t, t.kind === 'eof' ? `expected '${s}'${what ? ` ${what}` : ''} at end of input` : `expected '${s}'${what ? ` ${what}` : ''}, found '${t.text}'`);
    return this.next();
  }
  private ident(what: string): Token {
    const t = this.tok;
    if (t.kind !== 'ident') errorAt(t, `expected ${what}, found '${t.text}'`);
    return this.next();
  }

  // ---- scopes ----

  private enter(): void { this.scopes.push({ vars: new Map(), tags: new Map() }); }
  private leave(): void { this.scopes.pop(); }
  private lookup(name: string): ScopeEntry | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const e = this.scopes[i].vars.get(name);
      if (e) return e;
    }
    return undefined;
  }
  private lookupTag(name: string): CType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const e = this.scopes[i].tags.get(name);
      if (e) return e;
    }
    return undefined;
  }
  private declare(name: string, e: ScopeEntry): void { this.scopes[this.scopes.length - 1].vars.set(name, e); }

  // ---- translation unit ----

  // unit = (typedef | function-definition | declaration | _Static_assert | pragma | asm)*
  unit(): TranslationUnit {
    while (this.tok.kind !== 'eof') {
      this.release();
      if (this.tok.kind === 'pragma') { this.pragma(this.next()); continue; }
      if (this.consume(';')) continue;
      if (this.is('_Static_assert')) { this.staticAssert(); continue; }
      if (this.is('__asm__') || this.is('asm')) { this.next(); this.skip('('); this.skipBalanced(')'); this.skip(';'); continue; }
      const spec = this.declspec(true);
      if (spec.isTypedef) { this.typedefs(spec); continue; }
      if (this.consume(';')) continue;
      this.globalDecl(spec);
    }
    return { globals: this.globals };
  }

  /** Pragmas outside statements: `pack` changes struct layout; others are ignored. */
  private pragma(t: Token): void {
    const m = /^\s*pack\s*\(\s*(push)?\s*,?\s*(\d+)?\s*(pop)?\s*\)\s*$/.exec(t.text);
    if (!m) return;
    if (m[1]) this.packStack.push(this.pack);
    if (m[3]) this.pack = this.packStack.pop() ?? 0;
    else if (m[2]) {
      const n = Number(m[2]);
      if (n & (n - 1)) errorAt(t, `#pragma pack(${n}): the alignment must be a power of two`);
      this.pack = n;
    } else if (!m[1]) this.pack = 0;
  }

  private staticAssert(): void {
    const t = this.next();
    this.skip('(');
    const v = this.constExpr();
    let msg = '';
    if (this.consume(',')) msg = String.fromCharCode(...this.stringBytes().slice(0, -1));
    this.skip(')');
    this.skip(';');
    if (v === 0n) errorAt(t, `static assertion failed${msg ? `: ${msg}` : ''}`);
  }

  private typedefs(spec: DeclSpec): void {
    let first = true;
    while (!this.consume(';')) {
      if (!first) this.skip(',');
      first = false;
      const d = this.declarator(spec.ty);
      if (!d.name) errorAt(d.tok, 'typedef name missing');
      const aligned = d.attrs.aligned ?? spec.attrs.aligned;
      this.declare(d.name.text, { typedef: aligned ? { ...d.ty, align: aligned } : d.ty });
    }
  }

  // global-decl = declarator ("=" initializer | function-body)? ("," declarator ...)* ";"
  private globalDecl(spec: DeclSpec): void {
    let first = true;
    while (!this.consume(';')) {
      if (!first && !this.consume(',')) errorAt(this.tok, `expected ';' after the declaration, found '${this.tok.text}'`);
      first = false;
      const d = this.declarator(spec.ty);
      if (!d.name) errorAt(d.tok, 'declaration does not declare anything');
      const attrs = { ...spec.attrs, ...d.attrs };
      if (d.ty.kind === 'func') {
        const obj = this.declareGlobal(d.name, d.ty, spec, attrs);
        if (this.is('{')) {
          if (!first && false) errorAt(this.tok, 'function definition in a declarator list');
          this.funcBody(obj, d.paramNames, d.name);
          return;
        }
        continue;
      }
      const obj = this.declareGlobal(d.name, d.ty, spec, attrs);
      if (this.consume('=')) {
        if (obj.init) errorAt(d.name, `redefinition of '${d.name.text}'`);
        obj.init = this.globalInit(obj);
        obj.isDefinition = true;
      } else if (!spec.isExtern) obj.isDefinition = true;
    }
  }

  private declareGlobal(name: Token, ty: CType, spec: DeclSpec, attrs: Attrs): Obj {
    const prev = this.globalByName.get(name.text);
    if (prev) {
      if (!sameType(prev.type, ty) && !(prev.type.kind === 'array' && ty.kind === 'array'))
        errorAt(name, `conflicting types for '${name.text}': ${typeName(ty)} and ${typeName(prev.type)}`);
      if (prev.type.kind === 'array' && prev.type.len! < 0) prev.type = ty;
      if (ty.kind === 'func' && prev.type.oldStyle && !ty.oldStyle) prev.type = ty;
      prev.attrs = { ...prev.attrs, ...attrs };
      if (spec.isStatic) prev.isStatic = true;
      this.declare(name.text, { obj: prev });
      return prev;
    }
    const obj: Obj = {
      name: name.text, type: ty, tok: name, isLocal: false, symbol: name.text,
      isStatic: spec.isStatic, isExtern: spec.isExtern, isInline: spec.isInline, attrs,
    };
    if (ty.kind !== 'func' && isFloat(baseScalar(ty))) errorAt(name, FLOAT_MSG);
    this.globals.push(obj);
    this.globalByName.set(name.text, obj);
    this.declare(name.text, { obj });
    return obj;
  }

  // function-body = "{" compound-stmt
  private funcBody(obj: Obj, paramNames: (Token | undefined)[], at: Token): void {
    if (obj.fn) errorAt(at, `redefinition of '${obj.name}'`);
    const ft = obj.type;
    if (isRecord(ft.base!) && !ft.base!.complete) errorAt(obj.tok, `function '${obj.name}' returns an incomplete type`);
    const def: FuncDef = { tok: at, params: [], locals: [], body: undefined as unknown as Stmt, variadic: !!ft.variadic };
    this.fn = { obj, def };
    this.enter();
    ft.params!.forEach((pt, i) => {
      const nameTok = paramNames[i];
      const p: Obj = { name: nameTok?.text ?? '', type: pt, tok: nameTok ?? obj.tok, isLocal: true, symbol: '', paramIndex: i };
      def.params.push(p);
      def.locals.push(p);
      if (nameTok) this.declare(nameTok.text, { obj: p });
    });
    // __func__: its bytes and symbol come on its first use (most functions never name themselves).
    const size = /^[\x00-\x7f]*$/.test(obj.name) ? obj.name.length + 1 : new TextEncoder().encode(obj.name).length + 1;
    const fname: Obj = { name: '', type: arrayOf(CHAR, size), tok: obj.tok, isLocal: false, symbol: '', isStatic: true, isDefinition: true };
    this.fn.name = fname;
    this.declare('__func__', { obj: fname });
    this.declare('__FUNCTION__', { obj: fname });
    const t = this.skip('{');
    def.body = { k: 'block', tok: t, body: this.compound() };
    this.leave();
    obj.fn = def;
    obj.isDefinition = true;
    this.fn = undefined;
  }

  // ---- declarations ----

  private isTypename(t: Token = this.tok): boolean {
    if (t.kind !== 'ident') return false;
    if (TYPE_WORDS.has(t.text)) return true;
    const e = this.lookup(t.text);
    return !!e && 'typedef' in e;
  }

  // declspec = (storage-class | type-qualifier | type-specifier | attribute)+
  private declspec(allowStorage: boolean): DeclSpec {
    const spec: DeclSpec = { ty: INT, isTypedef: false, isStatic: false, isExtern: false, isInline: false, attrs: {} };
    let base: CType | undefined;
    let counts = { void: 0, bool: 0, char: 0, short: 0, int: 0, long: 0, signed: 0, unsigned: 0, float: 0, double: 0 };
    let isConst = false;
    let isVolatile = false;
    let seen = false;
    const start = this.tok;
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'ident') break;
      const w = t.text;
      if (w === 'typedef' || w === 'static' || w === 'extern' || w === 'inline' || w === '__inline' || w === '__inline__' || w === '_Thread_local' || w === 'auto' || w === 'register' || w === '_Noreturn' || w === '__extension__') {
        if (!allowStorage && w !== '__extension__' && w !== 'register') errorAt(t, `storage class '${w}' is not allowed here`);
        this.next();
        if (w === 'typedef') spec.isTypedef = true;
        else if (w === 'static') spec.isStatic = true;
        else if (w === 'extern') spec.isExtern = true;
        else if (w.includes('inline')) spec.isInline = true;
        else if (w === '_Noreturn') spec.attrs.noreturn = true;
        continue;
      }
      if (w === 'const' || w === '__const' || w === '__const__') { this.next(); isConst = true; continue; }
      if (w === 'volatile' || w === '__volatile__' || w === '__volatile') { this.next(); isVolatile = true; continue; }
      if (w === 'restrict' || w === '__restrict' || w === '__restrict__') { this.next(); continue; }
      if (w === '__attribute__' || w === '__attribute') { this.attributes(spec.attrs); continue; }
      if (w === '_Alignas') {
        this.next(); this.skip('(');
        const a = this.isTypename() ? this.typename().align : Number(this.constExpr());
        this.skip(')');
        spec.attrs.aligned = Math.max(spec.attrs.aligned ?? 0, a);
        continue;
      }
      if (w === 'struct' || w === 'union') {
        if (base || seen) break;
        this.next(); base = this.recordDecl(w); seen = true; continue;
      }
      if (w === 'enum') { if (base || seen) break; this.next(); base = this.enumDecl(); seen = true; continue; }
      if (w === '__typeof__' || w === 'typeof' || w === '__typeof') {
        if (base || seen) break;
        this.next(); this.skip('(');
        base = this.isTypename() ? this.typename() : this.expr().ty;
        this.skip(')'); seen = true; continue;
      }
      if (w === '__builtin_va_list') { if (base || seen) break; this.next(); base = pointerTo(CHAR); seen = true; continue; }
      if (w in counts || w === '_Bool') {
        if (base) break;
        this.next();
        counts[w === '_Bool' ? 'bool' : (w as keyof typeof counts)]++;
        seen = true;
        continue;
      }
      if (w === '_Complex' || w === '_Imaginary') errorAt(t, `'${w}' is not supported`);
      const e = this.lookup(w);
      if (e && 'typedef' in e && !base && !seen) { this.next(); base = e.typedef; seen = true; continue; }
      break;
    }
    let ty: CType;
    if (base) ty = base;
    else {
      const c = counts;
      if (c.float || c.double) ty = c.float ? { kind: 'float', size: 4, align: 4 } : c.long ? { kind: 'double', size: 16, align: 16 } : { kind: 'double', size: 8, align: 8 };
      else if (c.void) ty = VOID;
      else if (c.bool) ty = BOOL;
      else if (c.char) ty = c.unsigned ? UCHAR : c.signed ? SCHAR : CHAR;
      else if (c.short) ty = c.unsigned ? USHORT : SHORT;
      else if (c.long >= 2) ty = c.unsigned ? ULLONG : LLONG;
      else if (c.long === 1) ty = c.unsigned ? ULONG : LONG;
      else if (c.int || c.signed || c.unsigned) ty = c.unsigned ? UINT : INT;
      else {
        if (!spec.isTypedef && !spec.isStatic && !spec.isExtern && !spec.isInline && !isConst && !Object.keys(spec.attrs).length)
          errorAt(start, `unknown type name '${start.text}'`);
        ty = INT;
      }
    }
    if (spec.attrs.vectorSize) { ty = this.vectorType(ty, spec.attrs.vectorSize, start); delete spec.attrs.vectorSize; }
    if (isConst) ty = withConst(ty);
    if (isVolatile) ty = withVolatile(ty);
    spec.ty = ty;
    return spec;
  }

  private vectorType(elem: CType, bytes: number, at: Token): CType {
    if (!isInteger(elem)) errorAt(at, `vector_size of a non-integer type ${typeName(elem)}`);
    if (bytes % elem.size) errorAt(at, `vector_size(${bytes}) is not a multiple of ${typeName(elem)}'s size`);
    if (bytes > 8) errorAt(at, `vector_size(${bytes}) is not supported: vectors of at most 8 bytes (the cluster's SIMD works on 32 bits)`);
    return vectorOf(elem, bytes);
  }

  // attribute = "__attribute__" "((" (name ("(" args ")")?)* "))"
  private attributes(into: Attrs & { vectorSize?: number }): void {
    while (this.is('__attribute__') || this.is('__attribute')) {
      this.next();
      this.skip('(');
      this.skip('(');
      while (!this.is(')')) {
        if (this.consume(',')) continue;
        const nt = this.next();
        const name = nt.text.replace(/^__(.*)__$/, '$1');
        const args: Expr[] = [];
        let rawArgs: Token[] = [];
        if (this.is('(')) {
          this.next();
          if (name === 'aligned' || name === 'vector_size') {
            while (!this.is(')')) { args.push(this.assign()); this.consume(','); }
          } else {
            const s = this.pos;
            this.skipBalanced(')');
            rawArgs = this.toks.slice(s - this.base, this.pos - 1 - this.base);
            this.pos--;
          }
          this.skip(')');
        }
        switch (name) {
          case 'aligned': into.aligned = Math.max(into.aligned ?? 0, args.length ? Number(this.evalInt(args[0])) : 16); break;
          case 'vector_size': into.vectorSize = Number(this.evalInt(args[0])); break;
          case 'section': into.section = rawArgs.length ? String.fromCharCode(...decodeEscapes(rawArgs[0].text.slice(1, -1), rawArgs[0])) : undefined; break;
          case 'always_inline': into.alwaysInline = true; break;
          case 'noinline': into.noinline = true; break;
          case 'noreturn': into.noreturn = true; break;
          case 'packed': into.packed = true; break;
          case 'used': into.used = true; break;
          case 'weak': into.weak = true; break;
          default: break; // format, unused, may_alias, const, pure, ...: no effect on code
        }
      }
      this.skip(')');
      this.skip(')');
    }
  }

  private skipBalanced(close: string): void {
    let depth = 1;
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof') errorAt(t, `expected '${close}' at end of input`);
      if (t.kind !== 'punct') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') { if (--depth === 0) return; }
    }
  }

  // struct-decl = attribute* ident? ("{" struct-members "}")? attribute*
  private recordDecl(kind: 'struct' | 'union'): CType {
    const attrs: Attrs & { vectorSize?: number } = {};
    this.attributes(attrs);
    let tagTok: Token | undefined;
    if (this.tok.kind === 'ident' && !this.is('{')) tagTok = this.next();
    if (tagTok && !this.is('{')) {
      const prev = this.lookupTag(tagTok.text);
      if (prev) {
        if (prev.kind !== kind) errorAt(tagTok, `'${tagTok.text}' defined as the wrong kind of tag`);
        return prev;
      }
      const t: CType = { kind, size: 0, align: 1, tag: tagTok.text, complete: false, members: [] };
      this.scopes[this.scopes.length - 1].tags.set(tagTok.text, t);
      return t;
    }
    // A definition: reuse a forward declaration in this scope, so pointers made from it see the layout.
    let t: CType | undefined = tagTok ? this.scopes[this.scopes.length - 1].tags.get(tagTok.text) : undefined;
    if (t && t.complete) errorAt(tagTok!, `redefinition of '${kind} ${tagTok!.text}'`);
    if (!t) {
      t = { kind, size: 0, align: 1, tag: tagTok?.text, complete: false, members: [] };
      if (tagTok) this.scopes[this.scopes.length - 1].tags.set(tagTok.text, t);
    }
    this.skip('{');
    const members: { name: string; type: CType; bitWidth?: number; align?: number }[] = [];
    while (!this.consume('}')) {
      if (this.is('_Static_assert')) { this.staticAssert(); continue; }
      if (this.tok.kind === 'pragma') { this.pragma(this.next()); continue; }
      const spec = this.declspec(false);
      if (this.consume(';')) {
        if (isRecord(spec.ty)) members.push({ name: '', type: spec.ty, align: spec.attrs.aligned });
        continue;
      }
      let first = true;
      while (!this.consume(';')) {
        if (!first) this.skip(',');
        first = false;
        let mty = spec.ty;
        let name = '';
        let attrs: Attrs = {};
        if (!this.is(':')) {
          const d = this.declarator(spec.ty);
          mty = d.ty; name = d.name?.text ?? ''; attrs = d.attrs;
          if (mty.kind === 'func') errorAt(d.tok, `field '${name}' declared as a function`);
          if (isRecord(mty) && !mty.complete) errorAt(d.tok, `field '${name}' has incomplete type ${typeName(mty)}`);
        }
        let bitWidth: number | undefined;
        if (this.consume(':')) {
          const wt = this.tok;
          bitWidth = Number(this.constExpr());
          if (!isInteger(mty)) errorAt(wt, `bit-field '${name}' has non-integer type ${typeName(mty)}`);
          if (bitWidth < 0 || bitWidth > mty.size * 8) errorAt(wt, `width of bit-field '${name}' (${bitWidth} bits) exceeds its type (${mty.size * 8} bits)`);
        }
        this.attributes(attrs);
        const align = Math.max(spec.attrs.aligned ?? 0, attrs.aligned ?? 0) || undefined;
        members.push({ name, type: mty, bitWidth, align });
      }
    }
    this.attributes(attrs);
    layoutRecord(t, members, attrs.packed ? 1 : this.pack, attrs.aligned ?? 0);
    return t;
  }

  // enum-decl = ident? "{" (ident ("=" const-expr)? ",")* "}"
  private enumDecl(): CType {
    this.attributes({});
    let tagTok: Token | undefined;
    if (this.tok.kind === 'ident' && !this.is('{')) tagTok = this.next();
    const ty: CType = { ...INT, isEnum: true, tag: tagTok?.text };
    if (tagTok && !this.is('{')) {
      const prev = this.lookupTag(tagTok.text);
      return prev ?? ty;
    }
    this.skip('{');
    let val = 0n;
    const vals: bigint[] = [];
    while (!this.consume('}')) {
      const n = this.ident('an enumerator name');
      if (this.consume('=')) val = this.constExpr();
      vals.push(val);
      this.declare(n.text, { enumVal: val, ty: INT });
      val++;
      if (!this.consume(',')) { this.skip('}'); break; }
    }
    this.attributes({});
    // Like GCC: unsigned when no enumerator is negative (matters only past INT_MAX).
    const res: CType = vals.some((v) => v > 0x7fffffffn) ? { ...UINT, isEnum: true, tag: tagTok?.text } : ty;
    if (tagTok) this.scopes[this.scopes.length - 1].tags.set(tagTok.text, res);
    return res;
  }

  // declarator = pointers ("(" declarator ")" | ident)? type-suffix attribute*
  private declarator(ty: CType): { ty: CType; name?: Token; tok: Token; attrs: Attrs; paramNames: (Token | undefined)[] } {
    ty = this.pointers(ty);
    const attrs: Attrs & { vectorSize?: number } = {};
    this.attributes(attrs);
    if (this.is('(') && !this.isTypename(this.peek()) && !this.peek().is(')')) {
      const start = this.pos;
      this.pins++;
      this.next();
      this.skipBalanced(')');
      const suffix = this.typeSuffix(ty);
      const end = this.pos;
      this.pos = start + 1;
      this.pins--;
      const inner = this.declarator(suffix.ty);
      this.skip(')');
      this.pos = end;
      this.asmLabel(attrs);
      this.attributes(attrs);
      return { ...inner, attrs: { ...inner.attrs, ...attrs }, paramNames: inner.paramNames.length ? inner.paramNames : suffix.paramNames };
    }
    let name: Token | undefined;
    const tok = this.tok;
    // After the specifiers, a typedef name is the declarator's own name (`int T;` redeclares T).
    if (this.tok.kind === 'ident' && !TYPE_WORDS.has(this.tok.text)) name = this.next();
    const suffix = this.typeSuffix(ty);
    ty = suffix.ty;
    this.asmLabel(attrs);
    this.attributes(attrs);
    if (attrs.vectorSize) { ty = this.vectorType(ty, attrs.vectorSize, tok); delete attrs.vectorSize; }
    return { ty, name, tok: name ?? tok, attrs, paramNames: suffix.paramNames };
  }

  /** `__asm__("name")` after a declarator: a local register variable's register (an asm operand's). */
  private asmLabel(attrs: Attrs): void {
    if (!(this.is('__asm__') || this.is('asm') || this.is('__asm'))) return;
    this.next();
    this.skip('(');
    const t = this.tok;
    if (t.kind === 'string') { attrs.asmName = t.text.slice(t.text.indexOf('"') + 1, -1); this.next(); this.skip(')'); }
    else this.skipBalanced(')');
  }

  // pointers = ("*" (qualifier | attribute)*)*
  private pointers(ty: CType): CType {
    while (this.consume('*')) {
      ty = pointerTo(ty);
      for (;;) {
        if (this.is('const') || this.is('__const')) { this.next(); ty = withConst(ty); continue; }
        if (this.is('volatile') || this.is('__volatile__')) { this.next(); ty = withVolatile(ty); continue; }
        if (this.is('restrict') || this.is('__restrict') || this.is('__restrict__')) { this.next(); continue; }
        if (this.is('__attribute__')) { this.attributes({}); continue; }
        break;
      }
    }
    return ty;
  }

  // type-suffix = "(" params ")" | "[" const-expr? "]" type-suffix | ε
  private typeSuffix(ty: CType): { ty: CType; paramNames: (Token | undefined)[] } {
    if (this.is('(')) {
      const t = this.next();
      return this.params(ty, t);
    }
    if (this.is('[')) {
      const t = this.next();
      while (this.is('static') || this.is('const') || this.is('restrict') || this.is('volatile')) this.next();
      let len = -1;
      if (!this.is(']')) {
        const lt = this.tok;
        const e = this.assign();
        const v = this.tryEval(e);
        if (v === undefined) errorAt(lt, 'variable length arrays are not supported');
        if (v < 0n) errorAt(lt, `array size is negative (${v})`);
        len = Number(v);
      }
      this.skip(']');
      const inner = this.typeSuffix(ty).ty;
      if (inner.kind === 'func') errorAt(t, 'array of functions');
      if (inner.kind === 'array' && inner.len! < 0) errorAt(t, 'array has incomplete element type');
      return { ty: arrayOf(inner, len), paramNames: [] };
    }
    return { ty, paramNames: [] };
  }

  // params = "void" | param ("," param)* ("," "...")? | ε
  private params(ret: CType, open: Token): { ty: CType; paramNames: (Token | undefined)[] } {
    if (ret.kind === 'func') errorAt(open, 'function returning a function');
    if (ret.kind === 'array') errorAt(open, 'function returning an array');
    if (this.is('void') && this.peek().is(')')) { this.next(); this.next(); return { ty: funcType(ret, [], false), paramNames: [] }; }
    if (this.consume(')')) return { ty: funcType(ret, [], false, true), paramNames: [] };
    const params: CType[] = [];
    const names: (Token | undefined)[] = [];
    let variadic = false;
    // K&R identifier lists are not supported; every parameter has a type.
    for (;;) {
      if (this.consume('...')) { variadic = true; this.skip(')'); break; }
      const spec = this.declspec(false);
      const d = this.declarator(spec.ty);
      let pt = d.ty;
      if (pt.kind === 'array') pt = pointerTo(pt.base!);
      else if (pt.kind === 'func') pt = pointerTo(pt);
      params.push(pt);
      names.push(d.name);
      if (this.consume(')')) break;
      this.skip(',', 'between parameters');
    }
    return { ty: funcType(ret, params, variadic), paramNames: names };
  }

  // typename = declspec abstract-declarator
  private typename(): CType {
    const spec = this.declspec(false);
    const d = this.declarator(spec.ty);
    if (d.name) errorAt(d.name, `unexpected name '${d.name.text}' in a type name`);
    return d.ty;
  }

  // ---- statements ----

  // compound = (declaration | stmt)* "}"
  private compound(): Stmt[] {
    const out: Stmt[] = [];
    this.enter();
    while (!this.consume('}')) {
      if (this.tok.kind === 'eof') errorAt(this.tok, "expected '}' at end of input");
      this.release();
      if (this.isTypename() && !this.peek().is(':')) out.push(...this.localDecl());
      else if (this.is('_Static_assert')) this.staticAssert();
      else out.push(this.stmt());
    }
    this.leave();
    return out;
  }

  private localDecl(): Stmt[] {
    const spec = this.declspec(true);
    const out: Stmt[] = [];
    if (spec.isTypedef) { this.typedefs(spec); return out; }
    let first = true;
    while (!this.consume(';')) {
      if (!first && !this.consume(',')) errorAt(this.tok, `expected ';' after the declaration, found '${this.tok.text}'`);
      first = false;
      const d = this.declarator(spec.ty);
      if (!d.name) errorAt(d.tok, 'declaration does not declare anything');
      const attrs = { ...spec.attrs, ...d.attrs };
      if (d.ty.kind === 'func' || spec.isExtern) {
        const g = this.declareGlobal(d.name, d.ty, { ...spec, isStatic: false }, attrs);
        this.declare(d.name.text, { obj: g });
        continue;
      }
      if (d.ty.kind === 'void') errorAt(d.name, `variable '${d.name.text}' declared void`);
      if (isFloat(baseScalar(d.ty))) this.floatUse(d.name);
      if (spec.isStatic) {
        const obj: Obj = { name: d.name.text, type: d.ty, tok: d.name, isLocal: false, symbol: `${d.name.text}.${this.uniq++}`, isStatic: true, isDefinition: true, attrs };
        this.globals.push(obj);
        this.declare(d.name.text, { obj });
        if (this.consume('=')) obj.init = this.globalInit(obj);
        continue;
      }
      const obj = this.newLocal(d.name.text, d.ty, d.name);
      obj.align = attrs.aligned;
      if (attrs.asmName) obj.attrs = { asmName: attrs.asmName };
      this.declare(d.name.text, { obj });
      if (this.consume('=')) {
        const init = this.localInit(obj);
        out.push({ k: 'decl', tok: d.name, obj, init });
      } else {
        if (isRecord(d.ty) && !d.ty.complete) errorAt(d.name, `variable '${d.name.text}' has incomplete type ${typeName(d.ty)}`);
        if (d.ty.kind === 'array' && d.ty.len! < 0) errorAt(d.name, `array '${d.name.text}' needs an explicit size or an initializer`);
        out.push({ k: 'decl', tok: d.name, obj });
      }
    }
    return out;
  }

  private newLocal(name: string, ty: CType, tok: Token): Obj {
    const obj: Obj = { name, type: ty, tok, isLocal: true, symbol: '' };
    if (!this.fn) errorAt(tok, 'compound literal or local outside a function');
    this.fn.def.locals.push(obj);
    return obj;
  }

  // stmt = "return" expr? ";" | "if" ... | "switch" ... | "case" ... | "default" ":" stmt
  //      | "for" ... | "while" ... | "do" ... | "goto" ident ";" | "break" ";" | "continue" ";"
  //      | ident ":" stmt | "{" compound | asm-stmt | expr? ";"
  private stmt(): Stmt {
    const t = this.tok;
    if (t.kind === 'pragma') {
      this.next();
      this.pendingPragmas.push(t.text);
      return this.stmt();
    }
    const pragmas = this.pendingPragmas;
    this.pendingPragmas = [];
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'return': {
          this.next();
          const ret = this.fn!.obj.type.base!;
          if (this.consume(';')) return { k: 'return', tok: t };
          const e = this.expr();
          this.skip(';', 'after return value');
          if (ret.kind === 'void') {
            if (e.ty.kind !== 'void') errorAt(t, `void function '${this.fn!.obj.name}' returns a value`);
            return { k: 'expr', tok: t, e };
          }
          return { k: 'return', tok: t, e: this.convertAssign(e, ret, t, 'return') };
        }
        case 'if': {
          this.next(); this.skip('(');
          const c = this.condition(this.expr());
          this.skip(')');
          const then = this.stmt();
          const els = this.consume('else') ? this.stmt() : undefined;
          return { k: 'if', tok: t, c, then, els };
        }
        case 'switch': {
          this.next(); this.skip('(');
          let c = this.rvalue(this.expr());
          if (!isInteger(c.ty)) errorAt(t, `switch on a non-integer (${typeName(c.ty)})`);
          c = this.cast(c, promoted(c));
          this.skip(')');
          const sw: Extract<Stmt, { k: 'switch' }> = { k: 'switch', tok: t, c, body: undefined as unknown as Stmt, cases: [] };
          this.switches.push(sw);
          sw.body = this.stmt();
          this.switches.pop();
          return sw;
        }
        case 'case': {
          this.next();
          const sw = this.switches[this.switches.length - 1];
          if (!sw) errorAt(t, "'case' outside a switch");
          let v = this.constExpr();
          v = truncTo(v, sw.c.ty);
          if (this.consume('...')) errorAt(t, 'case ranges are not supported');
          this.skip(':', 'after case value');
          if (sw.cases.some((c) => c.val === v)) errorAt(t, `duplicate case value ${v}`);
          const label: Stmt = { k: 'case', tok: t, body: undefined as unknown as Stmt };
          sw.cases.push({ val: v, label });
          (label as { body: Stmt }).body = this.labelBody();
          return label;
        }
        case 'default': {
          this.next();
          const sw = this.switches[this.switches.length - 1];
          if (!sw) errorAt(t, "'default' outside a switch");
          this.skip(':');
          const label: Stmt = { k: 'case', tok: t, body: undefined as unknown as Stmt };
          if (sw.dflt) errorAt(t, "multiple 'default' labels in one switch");
          sw.dflt = label;
          (label as { body: Stmt }).body = this.labelBody();
          return label;
        }
        case 'for': {
          this.next(); this.skip('(');
          this.enter();
          let init: Stmt | undefined;
          if (this.isTypename()) init = { k: 'block', tok: t, body: this.localDecl() };
          else if (!this.consume(';')) { init = { k: 'expr', tok: this.tok, e: this.expr() }; this.skip(';'); }
          const cond = this.is(';') ? undefined : this.condition(this.expr());
          this.skip(';');
          const inc = this.is(')') ? undefined : this.expr();
          this.skip(')');
          const body = this.stmt();
          this.leave();
          return { k: 'loop', tok: t, init, cond, inc, body, doWhile: false, pragmas };
        }
        case 'while': {
          this.next(); this.skip('(');
          const cond = this.condition(this.expr());
          this.skip(')');
          return { k: 'loop', tok: t, cond, body: this.stmt(), doWhile: false, pragmas };
        }
        case 'do': {
          this.next();
          const body = this.stmt();
          this.skip('while', "after a do loop's body");
          this.skip('(');
          const cond = this.condition(this.expr());
          this.skip(')'); this.skip(';');
          return { k: 'loop', tok: t, cond, body, doWhile: true, pragmas };
        }
        case 'goto': {
          this.next();
          if (this.is('*')) errorAt(t, 'computed goto is not supported');
          const l = this.ident('a label');
          this.skip(';');
          return { k: 'goto', tok: t, label: l.text };
        }
        case 'break': case 'continue': this.next(); this.skip(';', `after '${t.text}'`); return { k: t.text, tok: t };
        case '__asm__': case 'asm': case '__asm': return this.asmStmt();
        default:
          if (this.peek().is(':')) {
            this.next(); this.next();
            return { k: 'label', tok: t, label: t.text, body: this.labelBody() };
          }
      }
    }
    if (this.is('{')) { this.next(); return { k: 'block', tok: t, body: this.compound() }; }
    if (this.consume(';')) return { k: 'null', tok: t };
    const e = this.expr();
    this.skip(';', 'after expression');
    return { k: 'expr', tok: t, e };
  }

  /** A label's statement (C23 allows a declaration or nothing before '}'; so do we). */
  private labelBody(): Stmt {
    if (this.is('}')) return { k: 'null', tok: this.tok };
    if (this.isTypename()) return { k: 'block', tok: this.tok, body: this.localDecl() };
    return this.stmt();
  }

  // asm-stmt = "asm" qualifiers "(" string (":" operands (":" operands (":" clobbers)?)?)? ")" ";"
  private asmStmt(): Stmt {
    const t = this.next();
    let isVolatile = false;
    while (this.is('volatile') || this.is('__volatile__') || this.is('inline') || this.is('goto')) { if (this.next().text !== 'inline') isVolatile = true; }
    this.skip('(');
    const template = String.fromCharCode(...this.stringBytes().slice(0, -1));
    const outputs: { constraint: string; e: Expr }[] = [];
    const inputs: { constraint: string; e: Expr }[] = [];
    const clobbers: string[] = [];
    const operands = (into: { constraint: string; e: Expr }[], out: boolean): void => {
      while (this.tok.kind === 'string' || this.is('[')) {
        if (this.consume('[')) { this.ident('an operand name'); this.skip(']'); }
        const ct = this.tok;
        const constraint = String.fromCharCode(...this.stringBytes().slice(0, -1));
        this.skip('(');
        let e = this.expr();
        this.skip(')');
        if (out) {
          if (!constraint.startsWith('=') && !constraint.startsWith('+')) errorAt(ct, `asm output constraint '${constraint}' must start with '=' or '+'`);
          this.lvalueCheck(e, ct, 'asm output');
        } else if (!/^[rimnIJK0-9g]+$/.test(constraint)) errorAt(ct, `unsupported asm input constraint '${constraint}'`);
        else if (!constraint.includes('i') && !constraint.includes('n') && !constraint.includes('m')) e = this.rvalue(e);
        if (!isScalar(e.ty) && e.ty.kind !== 'vector') errorAt(ct, `asm operand of type ${typeName(e.ty)}`);
        into.push({ constraint, e });
        if (!this.consume(',')) break;
      }
    };
    if (this.consume(':')) {
      operands(outputs, true);
      if (this.consume(':')) {
        operands(inputs, false);
        if (this.consume(':')) {
          while (this.tok.kind === 'string') { clobbers.push(String.fromCharCode(...this.stringBytes().slice(0, -1))); if (!this.consume(',')) break; }
        }
      }
    }
    this.skip(')'); this.skip(';');
    return { k: 'asm', tok: t, template, outputs, inputs, clobbers, volatile: isVolatile || outputs.length === 0 };
  }

  // ---- expressions ----

  // expr = assign ("," assign)*
  private expr(): Expr {
    let e = this.assign();
    while (this.is(',')) {
      const t = this.next();
      const b = this.rvalue(this.assign());
      e = { k: 'comma', ty: b.ty, tok: t, a: e, b };
    }
    return e;
  }

  // assign = cond (assign-op assign)?
  private assign(): Expr {
    const a = this.conditional();
    const t = this.tok;
    if (t.kind !== 'punct') return a;
    if (t.text === '=') {
      this.next();
      this.lvalueCheck(a, t, 'assignment');
      const b = this.assign();
      return { k: 'assign', ty: a.ty, tok: t, a, b: this.convertAssign(b, a.ty, t, 'assignment') };
    }
    const op = ASSIGN_OPS[t.text];
    if (!op) return a;
    this.next();
    this.lvalueCheck(a, t, 'assignment');
    const b = this.rvalue(this.assign());
    if (isPointer(a.ty) && (op === '+' || op === '-')) {
      if (!isInteger(b.ty)) errorAt(t, `invalid operands to '${t.text}' (${typeName(a.ty)} and ${typeName(b.ty)})`);
      return { k: 'opassign', ty: a.ty, tok: t, a, b: this.cast(b, b.ty.unsigned ? UINT : INT), op: op === '+' ? 'ptr+' : 'ptr-', opTy: a.ty };
    }
    if (a.ty.kind === 'vector') {
      return { k: 'opassign', ty: a.ty, tok: t, a, b: this.vectorOperand(b, a.ty, t), op, opTy: a.ty };
    }
    if (!isArith(a.ty) || !isArith(b.ty)) errorAt(t, `invalid operands to '${t.text}' (${typeName(a.ty)} and ${typeName(b.ty)})`);
    this.noFloat(a, t); this.noFloat(b, t);
    const opTy = op === '<<' || op === '>>' ? promoted(a) : arithType(a, b);
    const bt = op === '<<' || op === '>>' ? promoted(b) : opTy;
    return { k: 'opassign', ty: a.ty, tok: t, a, b: this.cast(b, bt), op, opTy };
  }

  private lvalueCheck(e: Expr, t: Token, what: string): void {
    if (!isLvalue(e)) errorAt(t, `${what} needs an lvalue on the left`);
    if (e.ty.kind === 'array') errorAt(t, `${what} to an array`);
    if (e.ty.isConst) errorAt(t, `${what} of read-only ${e.k === 'var' ? `variable '${e.obj.name}'` : 'location'}`);
    if (isRecord(e.ty) && e.ty.members?.some((m) => m.type.isConst)) errorAt(t, `${what} of a struct with a const member`);
  }

  // conditional = logor ("?" expr ":" conditional)?
  private conditional(): Expr {
    const c = this.logor();
    if (!this.is('?')) return c;
    const t = this.next();
    const cond = this.condition(c);
    // GNU `a ?: b` is not used by the project.
    let a = this.rvalue(this.expr());
    this.skip(':', "in '?:'");
    let b = this.rvalue(this.conditional());
    let ty: CType;
    if (isArith(a.ty) && isArith(b.ty)) {
      this.noFloat(a, t); this.noFloat(b, t);
      ty = arithType(a, b);
      a = this.cast(a, ty); b = this.cast(b, ty);
    } else if (a.ty.kind === 'void' || b.ty.kind === 'void') ty = VOID;
    else if (isPointer(a.ty) && isNullConst(b)) { ty = a.ty; b = this.cast(b, ty); }
    else if (isPointer(b.ty) && isNullConst(a)) { ty = b.ty; a = this.cast(a, ty); }
    else if (isPointer(a.ty) && isPointer(b.ty)) {
      ty = a.ty.base!.kind === 'void' ? a.ty : b.ty.base!.kind === 'void' ? b.ty : a.ty;
      a = this.cast(a, ty); b = this.cast(b, ty);
    } else if (isRecord(a.ty) && sameType(a.ty, b.ty)) ty = a.ty;
    else if (a.ty.kind === 'vector' && sameType(a.ty, b.ty)) ty = a.ty;
    else errorAt(t, `incompatible operands to '?:' (${typeName(a.ty)} and ${typeName(b.ty)})`);
    return { k: 'cond', ty, tok: t, c: cond, a, b };
  }

  /** A controlling expression: any scalar. */
  private condition(e: Expr): Expr {
    e = this.rvalue(e);
    if (!isScalar(e.ty)) errorAt(e.tok, `used ${typeName(e.ty)} where a scalar is required`);
    this.noFloat(e, e.tok);
    return e;
  }

  private logor(): Expr {
    let a = this.logand();
    while (this.is('||')) {
      const t = this.next();
      a = { k: 'lor', ty: INT, tok: t, a: this.condition(a), b: this.condition(this.logand()) };
    }
    return a;
  }

  private logand(): Expr {
    let a = this.binary(0);
    while (this.is('&&')) {
      const t = this.next();
      a = { k: 'land', ty: INT, tok: t, a: this.condition(a), b: this.condition(this.binary(0)) };
    }
    return a;
  }

  /**
   * Binary operators from | (level 0) to * / % (level 7) by precedence climbing: the operators of
   * level `min` and above, all left-associative (one call per operand, not one per level).
   */
  private binary(min: number): Expr {
    let a = this.castExpr();
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct') return a;
      const level = BIN_LEVEL.get(t.text);
      if (level === undefined || level < min) return a;
      this.next();
      const b = this.binary(level + 1);
      a = this.binop(t.text as BinOp, a, b, t);
    }
  }

  /** Types a binary operation: conversions, pointer arithmetic, comparisons (result int). */
  binop(op: BinOp, a: Expr, b: Expr, t: Token): Expr {
    a = this.rvalue(a);
    b = this.rvalue(b);
    const bad = (): never => errorAt(t, `invalid operands to '${op}' (${typeName(a.ty)} and ${typeName(b.ty)})`);
    if (a.ty.kind === 'vector' || b.ty.kind === 'vector') {
      const vt = a.ty.kind === 'vector' ? a.ty : b.ty;
      const va = this.vectorOperand(a, vt, t), vb = this.vectorOperand(b, vt, t);
      // GCC: a comparison gives a vector of signed integers of the element's size (-1 / 0 lanes).
      const cmp = op === '==' || op === '!=' || op === '<' || op === '<=' || op === '>' || op === '>=';
      const ty = cmp ? vectorOf(SIGNED_OF_SIZE[vt.base!.size], vt.size) : vt;
      return { k: 'bin', ty, tok: t, op, a: va, b: vb };
    }
    if (op === '+' || op === '-') {
      if (isPointer(a.ty) && isInteger(b.ty)) return this.ptrAdd(a, b, op, t);
      if (op === '+' && isInteger(a.ty) && isPointer(b.ty)) return this.ptrAdd(b, a, op, t);
      if (op === '-' && isPointer(a.ty) && isPointer(b.ty)) {
        if (!sameType(unqual(a.ty.base!), unqual(b.ty.base!))) errorAt(t, `subtraction of pointers to different types (${typeName(a.ty)} and ${typeName(b.ty)})`);
        return { k: 'ptrdiff', ty: INT, tok: t, a, b, scale: elemSize(a.ty, t) };
      }
    }
    if (op === '==' || op === '!=' || op === '<' || op === '<=' || op === '>' || op === '>=') {
      if (isPointer(a.ty) || isPointer(b.ty)) {
        const okA = isPointer(a.ty) || (isInteger(a.ty) && (isNullConst(a) || op === '==' || op === '!='));
        const okB = isPointer(b.ty) || (isInteger(b.ty) && (isNullConst(b) || op === '==' || op === '!='));
        if (!okA || !okB) bad();
        return { k: 'bin', ty: INT, tok: t, op, a: this.cast(a, UINT), b: this.cast(b, UINT) };
      }
      if (!isArith(a.ty) || !isArith(b.ty)) bad();
      this.noFloat(a, t); this.noFloat(b, t);
      const ct = arithType(a, b);
      return { k: 'bin', ty: INT, tok: t, op, a: this.cast(a, ct), b: this.cast(b, ct) };
    }
    if (!isArith(a.ty) || !isArith(b.ty)) bad();
    this.noFloat(a, t); this.noFloat(b, t);
    if (op === '<<' || op === '>>') {
      const at = promoted(a);
      return { k: 'bin', ty: at, tok: t, op, a: this.cast(a, at), b: this.cast(b, promoted(b)) };
    }
    const ct = arithType(a, b);
    return { k: 'bin', ty: ct, tok: t, op, a: this.cast(a, ct), b: this.cast(b, ct) };
  }

  private vectorOperand(e: Expr, vt: CType, t: Token): Expr {
    if (e.ty.kind === 'vector') {
      if (e.ty.size !== vt.size || e.ty.len !== vt.len) errorAt(t, `vector operands of different types (${typeName(e.ty)} and ${typeName(vt)})`);
      return e;
    }
    if (!isInteger(e.ty)) errorAt(t, `invalid vector operand of type ${typeName(e.ty)}`);
    // A scalar operand is splatted (GCC): lowering broadcasts it.
    return { k: 'cast', ty: vt, tok: t, a: this.cast(e, vt.base!) };
  }

  private ptrAdd(p: Expr, i: Expr, op: '+' | '-', t: Token): Expr {
    const idx = this.cast(i, i.ty.unsigned && i.ty.size <= 4 ? UINT : INT);
    const scale = elemSize(p.ty, t);
    const b: Expr = op === '-' ? { k: 'neg', ty: idx.ty, tok: t, a: idx } : idx;
    return { k: 'ptradd', ty: p.ty, tok: t, a: p, b, scale };
  }

  // cast = "(" typename ")" cast | unary
  private castExpr(): Expr {
    if (this.is('(') && this.isTypename(this.peek())) {
      const t = this.tok;
      const save = this.pos;
      this.pins++;
      this.next();
      const ty = this.typename();
      this.skip(')');
      this.pins--;
      if (this.is('{')) { this.pos = save; return this.unary(); }
      const e = this.rvalue(this.castExpr());
      if (ty.kind === 'void') return { k: 'cast', ty: VOID, tok: t, a: e };
      if (isFloat(ty)) this.floatUse(t);
      if (!isScalar(ty) && ty.kind !== 'vector') errorAt(t, `cast to non-scalar type ${typeName(ty)}`);
      if (!isScalar(e.ty) && e.ty.kind !== 'vector') errorAt(t, `cast from non-scalar type ${typeName(e.ty)}`);
      if (ty.kind === 'vector' || e.ty.kind === 'vector') {
        if (ty.size !== e.ty.size) errorAt(t, `cast between types of different sizes (${typeName(e.ty)} to ${typeName(ty)})`);
        return { k: 'cast', ty, tok: t, a: e };
      }
      this.noFloat(e, t);
      return { k: 'cast', ty: unqual(ty), tok: t, a: e };
    }
    return this.unary();
  }

  // unary = ("+" | "-" | "*" | "&" | "!" | "~" | "++" | "--") cast | "sizeof" ... | "_Alignof" ... | postfix
  private unary(): Expr {
    const t = this.tok;
    if (t.kind === 'punct') {
      switch (t.text) {
        case '+': case '-': case '~': {
          this.next();
          const a = this.rvalue(this.castExpr());
          if (a.ty.kind === 'vector') return t.text === '+' ? a : { k: t.text === '-' ? 'neg' : 'bitnot', ty: a.ty, tok: t, a };
          if (!(t.text === '~' ? isInteger(a.ty) : isArith(a.ty))) errorAt(t, `invalid operand to unary '${t.text}' (${typeName(a.ty)})`);
          this.noFloat(a, t);
          const pa = this.cast(a, promoted(a));
          if (t.text === '+') return pa;
          return { k: t.text === '-' ? 'neg' : 'bitnot', ty: pa.ty, tok: t, a: pa };
        }
        case '!': {
          this.next();
          return { k: 'lnot', ty: INT, tok: t, a: this.condition(this.castExpr()) };
        }
        case '&': {
          this.next();
          const a = this.castExpr();
          if (a.k === 'member' && a.m.bitWidth !== undefined) errorAt(t, `address of bit-field '${a.m.name}'`);
          if (a.ty.kind === 'func') return { k: 'addr', ty: pointerTo(a.ty), tok: t, a };
          if (!isLvalue(a)) errorAt(t, "cannot take the address of an rvalue");
          markAddressTaken(a);
          return { k: 'addr', ty: pointerTo(a.ty), tok: t, a };
        }
        case '*': {
          this.next();
          const a = this.rvalue(this.castExpr());
          if (a.ty.kind === 'ptr' && a.ty.base!.kind === 'func') return a;
          if (!isPointer(a.ty)) errorAt(t, `indirection requires a pointer operand (${typeName(a.ty)} invalid)`);
          if (a.ty.base!.kind === 'void') errorAt(t, "dereferencing a 'void *' pointer");
          return { k: 'deref', ty: a.ty.base!, tok: t, a };
        }
        case '++': case '--': {
          this.next();
          return this.incdec(this.unary(), t, t.text === '++' ? 1 : -1, false);
        }
        case '&&': errorAt(t, 'labels as values are not supported');
      }
    }
    if (t.kind === 'ident') {
      if (t.text === 'sizeof') {
        this.next();
        if (this.is('(') && this.isTypename(this.peek())) {
          const save = this.pos;
          this.pins++;
          this.next();
          const ty = this.typename();
          this.skip(')');
          this.pins--;
          if (this.is('{')) { this.pos = save; const e = this.unary(); return this.sizeofType(e.ty, t); }
          return this.sizeofType(ty, t);
        }
        const e = this.unary();
        if (e.k === 'member' && e.m.bitWidth !== undefined) errorAt(t, 'sizeof of a bit-field');
        return this.sizeofType(e.ty, t);
      }
      if (t.text === '_Alignof' || t.text === '__alignof__' || t.text === '__alignof' || t.text === 'alignof') {
        this.next();
        if (this.is('(') && this.isTypename(this.peek())) {
          this.next();
          const ty = this.typename();
          this.skip(')');
          return num(BigInt(ty.align), ULONG, t);
        }
        const e = this.unary();
        if (e.k === 'var') return num(BigInt(Math.max(e.obj.align ?? 0, e.obj.attrs?.aligned ?? 0, e.ty.align)), ULONG, t);
        return num(BigInt(e.ty.align), ULONG, t);
      }
      if (t.text === '__extension__') { this.next(); return this.castExpr(); }
    }
    return this.postfix();
  }

  private sizeofType(ty: CType, t: Token): Expr {
    if (ty.kind === 'func') errorAt(t, 'sizeof of a function type');
    if (ty.kind === 'void') return num(1n, UINT, t);
    if ((isRecord(ty) && !ty.complete) || (ty.kind === 'array' && ty.len! < 0)) errorAt(t, `sizeof of incomplete type ${typeName(ty)}`);
    return num(BigInt(ty.size), UINT, t);
  }

  private incdec(a: Expr, t: Token, delta: number, post: boolean): Expr {
    this.lvalueCheck(a, t, `'${t.text}'`);
    if (isPointer(a.ty)) return { k: 'incdec', ty: a.ty, tok: t, a, delta: delta * elemSize(a.ty, t), post };
    if (!isArith(a.ty)) errorAt(t, `invalid operand to '${t.text}' (${typeName(a.ty)})`);
    this.noFloat(a, t);
    return { k: 'incdec', ty: a.ty, tok: t, a, delta, post };
  }

  // postfix = "(" typename ")" "{" init "}" postfix-tail* | primary postfix-tail*
  private postfix(): Expr {
    let e: Expr;
    if (this.is('(') && this.isTypename(this.peek())) {
      const t = this.next();
      const ty = this.typename();
      this.skip(')');
      e = this.compoundLiteral(ty, t);
    } else e = this.primary();
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct') return e;
      if (t.text === '(') { this.next(); e = this.call(e, t); continue; }
      if (t.text === '[') {
        this.next();
        const idx = this.expr();
        this.skip(']');
        if (e.ty.kind === 'vector') {
          if (!isInteger(idx.ty)) errorAt(t, 'vector subscript is not an integer');
          e = { k: 'velem', ty: e.ty.base!, tok: t, a: e, idx: this.cast(this.rvalue(idx), INT) };
          continue;
        }
        const sum = this.binop('+', e, idx, t);
        if (!isPointer(sum.ty)) errorAt(t, `subscripted value is not an array or pointer (${typeName(e.ty)})`);
        if (sum.ty.base!.kind === 'void') errorAt(t, "subscript of a 'void *' pointer");
        e = { k: 'deref', ty: sum.ty.base!, tok: t, a: sum };
        continue;
      }
      if (t.text === '.' || t.text === '->') {
        this.next();
        const nt = this.ident('a member name');
        let base = e;
        if (t.text === '->') {
          base = this.rvalue(e);
          if (!isPointer(base.ty) || !isRecord(base.ty.base!)) errorAt(t, `member reference '->${nt.text}' on a non-pointer-to-struct (${typeName(base.ty)})`);
          base = { k: 'deref', ty: base.ty.base!, tok: t, a: base };
        } else if (!isRecord(e.ty)) errorAt(t, `member reference '.${nt.text}' on a non-struct (${typeName(e.ty)})`);
        if (!base.ty.complete) errorAt(nt, `member access into incomplete type ${typeName(base.ty)}`);
        const m = findMember(base.ty, nt.text);
        if (!m) errorAt(nt, `no member named '${nt.text}' in ${typeName(base.ty)}`);
        let mty = m.type;
        if (base.ty.isConst && !mty.isConst) mty = withConst(mty);
        if (base.ty.isVolatile) mty = withVolatile(mty);
        e = { k: 'member', ty: mty, tok: nt, a: base, m };
        continue;
      }
      if (t.text === '++' || t.text === '--') { this.next(); e = this.incdec(e, t, t.text === '++' ? 1 : -1, true); continue; }
      return e;
    }
  }

  private compoundLiteral(ty: CType, t: Token): Expr {
    if (!this.fn) {
      // At file scope: an anonymous global (used in static initialisers).
      const obj: Obj = { name: '', type: ty, tok: t, isLocal: false, symbol: `.compoundliteral.${this.uniq++}`, isStatic: true, isDefinition: true };
      this.globals.push(obj);
      obj.init = this.globalInit(obj);
      return { k: 'var', ty: obj.type, tok: t, obj };
    }
    const obj = this.newLocal('', ty, t);
    const stores = this.localInit(obj);
    return { k: 'init', ty: obj.type, tok: t, obj, stores };
  }

  // call = (assign ("," assign)*)? ")"
  private call(fnExpr: Expr, t: Token): Expr {
    let f = this.rvalue(fnExpr);
    if (!(isPointer(f.ty) && f.ty.base!.kind === 'func')) errorAt(t, `called object is not a function (${typeName(fnExpr.ty)})`);
    const ft = f.ty.base!;
    const args: Expr[] = [];
    const name = fnExpr.k === 'var' ? `'${fnExpr.obj.name}'` : 'function';
    while (!this.is(')')) {
      if (args.length) this.skip(',', 'between arguments');
      const at = this.tok;
      let a = this.rvalue(this.assign());
      const i = args.length;
      if (i < ft.params!.length) a = this.convertAssign(a, ft.params![i], at, `argument ${i + 1} of ${name}`);
      else {
        if (!ft.variadic && !ft.oldStyle) errorAt(at, `too many arguments to ${name} (expected ${ft.params!.length})`);
        this.noFloat(a, at);
        if (isInteger(a.ty)) a = this.cast(a, promoted(a));
      }
      args.push(a);
    }
    this.next();
    if (args.length < ft.params!.length) errorAt(t, `too few arguments to ${name} (expected ${ft.params!.length}, have ${args.length})`);
    if (isFloat(ft.base!)) this.floatUse(t);
    return { k: 'call', ty: ft.base!, tok: t, fn: f, args, fnType: ft };
  }

  // primary = "(" expr ")" | "(" "{" stmt-expr "}" ")" | builtin | ident | string | number | char
  private primary(): Expr {
    const t = this.tok;
    if (t.kind === 'punct' && t.text === '(') {
      this.next();
      if (this.is('{')) {
        if (!this.fn) errorAt(t, 'statement expression outside a function');
        this.next();
        const body = this.compound();
        this.skip(')');
        const last = body[body.length - 1];
        const ty = last && last.k === 'expr' ? this.rvalue(last.e).ty : VOID;
        if (last && last.k === 'expr') last.e = this.rvalue(last.e);
        return { k: 'stmtexpr', ty, tok: t, body };
      }
      const e = this.expr();
      this.skip(')');
      return e;
    }
    if (t.kind === 'number') { this.next(); return this.number(t); }
    if (t.kind === 'char') { this.next(); const v = charValue(t, true); return num(v.v, INT, t); }
    if (t.kind === 'string') {
      const bytes = this.stringBytes();
      const obj = this.stringObj(bytes, t);
      return { k: 'str', ty: obj.type, tok: t, obj };
    }
    if (t.kind === 'ident') {
      if (t.text.startsWith('__builtin_')) return this.builtin();
      const e = this.lookup(t.text);
      this.next();
      if (!e) {
        if (this.is('(')) errorAt(t, `call to undeclared function '${t.text}'`);
        errorAt(t, `use of undeclared identifier '${t.text}'`);
      }
      if ('enumVal' in e) return num(e.enumVal, e.ty, t);
      if ('typedef' in e) errorAt(t, `unexpected type name '${t.text}' in an expression`);
      if (e.obj === this.fn?.name && !e.obj.init) this.placeFuncName(e.obj);
      return { k: 'var', ty: e.obj.type, tok: t, obj: e.obj };
    }
    if (t.kind === 'eof') errorAt(t, 'expected an expression at end of input');
    if (t.kind === 'pragma') errorAt(t, `unexpected '#pragma ${t.text}' in an expression`);
    errorAt(t, `expected an expression, found '${t.text}'`);
  }

  private builtin(): Expr {
    const t = this.next();
    const args = (n: number): Expr[] => {
      this.skip('(');
      const out: Expr[] = [];
      while (!this.consume(')')) { if (out.length) this.skip(','); out.push(this.rvalue(this.assign())); }
      if (n >= 0 && out.length !== n) errorAt(t, `'${t.text}' takes ${n} argument${n === 1 ? '' : 's'}, ${out.length} given`);
      return out;
    };
    switch (t.text) {
      case '__builtin_expect': { const [a, b] = args(2); void b; return this.cast(a, LONG); }
      case '__builtin_assume_aligned': { const a = args(-1); return a[0]; }
      case '__builtin_constant_p': { const [a] = args(1); return num(this.tryEval(a) !== undefined ? 1n : 0n, INT, t); }
      case '__builtin_unreachable': case '__builtin_trap': args(0); return { k: 'builtin', ty: VOID, tok: t, name: t.text.slice(10), args: [] };
      case '__builtin_memcpy': case '__builtin_memmove': case '__builtin_memset': {
        const a = args(3);
        const p = pointerTo(VOID);
        const conv = t.text === '__builtin_memset' ? [this.cast(a[0], p), this.cast(a[1], INT), this.cast(a[2], UINT)] : [this.cast(a[0], p), this.cast(a[1], p), this.cast(a[2], UINT)];
        return { k: 'builtin', ty: p, tok: t, name: t.text.slice(10), args: conv };
      }
      case '__builtin_clz': case '__builtin_ctz': case '__builtin_popcount': case '__builtin_bswap32': case '__builtin_bswap16':
      case '__builtin_clzl': case '__builtin_ctzl': case '__builtin_popcountl': case '__builtin_parity': {
        const [a] = args(1);
        const name = t.text.slice(10).replace(/l$/, '');
        const ty = name === 'bswap16' ? USHORT : name === 'bswap32' ? UINT : INT;
        return { k: 'builtin', ty, tok: t, name, args: [this.cast(a, name === 'bswap16' ? USHORT : UINT)] };
      }
      case '__builtin_abs': { const [a] = args(1); return this.abs(this.cast(a, INT), t); }
      case '__builtin_va_start': {
        const [ap, last] = args(2); void last;
        if (!this.fn?.def.variadic) errorAt(t, "'va_start' used in a function with fixed arguments");
        return { k: 'vastart', ty: VOID, tok: t, a: this.vaList(ap, t) };
      }
      case '__builtin_va_end': { const [ap] = args(1); return { k: 'cast', ty: VOID, tok: t, a: ap }; }
      case '__builtin_va_copy': {
        const [d, s] = args(2);
        const dl = this.vaList(d, t);
        return { k: 'assign', ty: dl.ty.base!, tok: t, a: { k: 'deref', ty: dl.ty.base!, tok: t, a: dl }, b: this.cast(s, pointerTo(CHAR)) };
      }
      case '__builtin_va_arg': {
        this.skip('(');
        const ap = this.assign();
        this.skip(',');
        const ty = this.typename();
        this.skip(')');
        if (isFloat(ty)) this.floatUse(t);
        return { k: 'vaarg', ty, tok: t, a: this.vaList(ap, t) };
      }
      case '__builtin_offsetof': {
        this.skip('(');
        const ty = this.typename();
        this.skip(',');
        let off = 0;
        let cur = ty;
        for (let first = true; ; first = false) {
          if (first || this.consume('.')) {
            const nt = this.ident('a member name');
            if (!isRecord(cur)) errorAt(nt, `offsetof into non-struct ${typeName(cur)}`);
            const m = findMember(cur, nt.text);
            if (!m) errorAt(nt, `no member named '${nt.text}' in ${typeName(cur)}`);
            off += m.offset; cur = m.type;
          } else if (this.consume('[')) {
            const i = this.constExpr();
            this.skip(']');
            if (cur.kind !== 'array') errorAt(t, 'offsetof subscript of a non-array');
            off += Number(i) * cur.base!.size; cur = cur.base!;
          } else break;
        }
        this.skip(')');
        return num(BigInt(off), UINT, t);
      }
      case '__builtin_types_compatible_p': {
        this.skip('('); const a = this.typename(); this.skip(','); const b = this.typename(); this.skip(')');
        return num(sameType(unqual(a), unqual(b)) ? 1n : 0n, INT, t);
      }
      default: {
        const e = this.lookup(t.text);
        if (e && 'obj' in e) return { k: 'var', ty: e.obj.type, tok: t, obj: e.obj };
        errorAt(t, `unsupported builtin '${t.text}'`);
      }
    }
  }

  private abs(a: Expr, t: Token): Expr {
    const neg: Expr = { k: 'neg', ty: INT, tok: t, a };
    return { k: 'cond', ty: INT, tok: t, c: { k: 'bin', ty: INT, tok: t, op: '<', a, b: num(0n, INT, t) }, a: neg, b: a };
  }

  /** The address of a va_list object (a `char *` holding the next argument's address). */
  private vaList(ap: Expr, t: Token): Expr {
    const e = ap.k === 'cast' ? ap.a : ap;
    if (!isLvalue(e) || !(isPointer(e.ty) && e.ty.base!.kind === 'char')) errorAt(t, `'${t.text}' needs a va_list`);
    markAddressTaken(e);
    return { k: 'addr', ty: pointerTo(e.ty), tok: t, a: e };
  }

  private number(t: Token): Expr {
    const s = t.text;
    const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)$/.exec(s);
    if (!m) {
      if (/^(0[xX][0-9a-fA-F.]*[pP]|[0-9]*\.|[0-9]+[eE])/.test(s) || /^[0-9.]+[eE.]?[0-9]*[fFlL]?$/.test(s)) { this.floatUse(t); return num(0n, INT, t); }
      errorAt(t, `invalid number '${s}'`);
    }
    let digits = m[1];
    let val: bigint;
    const isDec = !/^0[xXbB]/.test(digits) && !(digits.length > 1 && digits[0] === '0');
    if (/^0[bB]/.test(digits)) val = BigInt(digits);
    else if (/^0[xX]/.test(digits)) val = BigInt(digits);
    else if (digits.length > 1 && digits[0] === '0') {
      if (/[89]/.test(digits)) errorAt(t, `invalid digit in octal constant '${s}'`);
      digits = '0o' + digits.slice(1);
      val = BigInt(digits);
    } else val = BigInt(digits);
    const suf = m[2].toLowerCase();
    if (!/^(u?l{0,2}|l{1,2}u)$/.test(suf)) errorAt(t, `invalid suffix '${m[2]}' on integer constant`);
    const u = suf.includes('u');
    const ll = suf.includes('ll');
    if (val > 0xffffffffffffffffn) errorAt(t, `integer constant '${s}' is too large`);
    let ty: CType;
    const fits32s = val <= 0x7fffffffn, fits32u = val <= 0xffffffffn, fits64s = val <= 0x7fffffffffffffffn;
    if (ll) ty = u || (!isDec && !fits64s) ? ULLONG : fits64s ? LLONG : ULLONG;
    else if (u) ty = fits32u ? (suf.includes('l') ? ULONG : UINT) : ULLONG;
    else if (suf.includes('l')) ty = fits32s ? LONG : !isDec && fits32u ? ULONG : fits64s ? LLONG : ULLONG;
    else ty = fits32s ? INT : !isDec && fits32u ? UINT : fits64s ? LLONG : ULLONG;
    return num(val, ty, t);
  }

  /** Adjacent string literals concatenated, with the terminating NUL. */
  private stringBytes(): number[] {
    const out: number[] = [];
    const t0 = this.tok;
    if (t0.kind !== 'string') errorAt(t0, `expected a string literal, found '${t0.text}'`);
    while (this.tok.kind === 'string') {
      const t = this.next();
      const q = t.text.indexOf('"');
      if (q !== 0 && t.text.slice(0, q) !== 'u8') errorAt(t, 'wide string literals are not supported');
      const body = t.text.slice(q + 1, -1);
      if (!body.includes('\\')) { for (let i = 0; i < body.length; i++) { const c = body.charCodeAt(i); if (c < 128) out.push(c); else out.push(...new TextEncoder().encode(body[i])); } }
      else for (const c of decodeEscapes(body, t)) out.push(c & 0xff);
    }
    out.push(0);
    return out;
  }

  /** The function's __func__ becomes a string literal's object (bytes, symbol, a global). */
  private placeFuncName(o: Obj): void {
    o.init = { bytes: Uint8Array.from(new TextEncoder().encode(`${this.fn!.obj.name}\0`)), relocs: [] };
    o.symbol = `.str.${this.uniq++}`;
    this.globals.push(o);
  }

  private stringObj(bytes: ArrayLike<number>, t: Token): Obj {
    const obj: Obj = {
      name: '', type: arrayOf(CHAR, bytes.length), tok: t, isLocal: false, symbol: `.str.${this.uniq++}`, isStatic: true, isDefinition: true,
      init: { bytes: Uint8Array.from(bytes), relocs: [] },
    };
    this.globals.push(obj);
    return obj;
  }

  // ---- conversions ----

  /** Arrays decay to pointers, functions to function pointers (C99 6.3.2.1). */
  rvalue(e: Expr): Expr {
    if (e.ty.kind === 'array') return { k: 'addr', ty: pointerTo(e.ty.base!), tok: e.tok, a: e };
    if (e.ty.kind === 'func') return { k: 'addr', ty: pointerTo(e.ty), tok: e.tok, a: e };
    return e;
  }

  cast(e: Expr, ty: CType): Expr {
    if (e.ty === ty) return e;
    if (e.ty.kind === ty.kind && !!e.ty.unsigned === !!ty.unsigned && e.ty.kind !== 'ptr' && e.ty.kind !== 'struct' && e.ty.kind !== 'union' && e.ty.kind !== 'vector') {
      return e.ty.isConst ? { k: 'cast', ty, tok: e.tok, a: e } : e;
    }
    if (e.k === 'num' && isInteger(ty)) return num(truncTo(e.val, ty), ty, e.tok);
    return { k: 'cast', ty, tok: e.tok, a: e };
  }

  private noFloat(e: Expr, t: Token): void {
    if (isFloat(e.ty)) this.floatUse(t);
  }

  /**
   * Floating point is not supported yet. Inside a function the error is deferred: the function
   * is marked and lowering reports it only if the function is compiled (used or not static),
   * so headers full of unused static float helpers (csmith's safe_math.h) still compile.
   */
  private floatUse(t: Token): void {
    if (!this.fn) errorAt(t, FLOAT_MSG);
    this.fn.obj.floatTok ??= t;
  }

  /** Conversion as if by assignment (C99 6.5.16.1): checks the operand and inserts the cast. */
  private convertAssign(e: Expr, ty: CType, t: Token, what: string): Expr {
    e = this.rvalue(e);
    const bad = (): never => errorAt(t, `incompatible types in ${what}: ${typeName(e.ty)} to ${typeName(ty)}`);
    if (isFloat(ty) || isFloat(e.ty)) { this.floatUse(t); return this.cast(e, ty); }
    if (isRecord(ty)) { if (!sameType(unqual(ty), unqual(e.ty))) bad(); return e; }
    if (ty.kind === 'vector') { if (e.ty.kind !== 'vector' || e.ty.size !== ty.size) bad(); return e; }
    if (ty.kind === 'bool') { if (!isScalar(e.ty)) bad(); return this.cast(e, BOOL); }
    if (isPointer(ty)) {
      if (isPointer(e.ty) || isNullConst(e)) return this.cast(e, unqual(ty));
      if (isInteger(e.ty)) return this.cast(e, unqual(ty)); // int-to-pointer (a warning in C)
      bad();
    }
    if (isInteger(ty)) {
      if (isInteger(e.ty) || isPointer(e.ty)) return this.cast(e, unqual(ty));
      bad();
    }
    return bad();
  }

  // ---- constant expressions ----

  constExpr(): bigint {
    const t = this.tok;
    const e = this.conditional();
    const v = this.tryEval(e);
    if (v === undefined) errorAt(t, 'expression is not an integer constant expression');
    return v;
  }

  private evalInt(e: Expr): bigint {
    const v = this.tryEval(e);
    if (v === undefined) errorAt(e.tok, 'expression is not an integer constant expression');
    return v;
  }

  tryEval(e: Expr): bigint | undefined {
    const r = evalConst(e);
    if (!r || r.sym !== undefined) return undefined;
    return r.val;
  }

  // ---- initialisers ----

  /** A global's initialiser: bytes and relocations, written as the tokens are read. */
  private globalInit(obj: Obj): GlobalInit {
    const w = new ByteWriter(obj.type.size);
    this.initializer(obj.type, 0, { global: w, local: undefined }, true);
    if (obj.type.kind === 'array' && obj.type.len! < 0) obj.type = arrayOf(obj.type.base!, w.maxIndex);
    if (isRecord(obj.type) || obj.type.kind === 'array') w.ensure(obj.type.size);
    return { bytes: w.bytes.subarray(0, obj.type.size), relocs: w.relocs };
  }

  private localInit(obj: Obj): LocalInit {
    const li: LocalInit = { zero: false, stores: [] };
    const sink: InitSink = { global: undefined, local: li, maxIndex: 0 };
    if (!isScalar(obj.type) && obj.type.kind !== 'vector') li.zero = true;
    this.initializer(obj.type, 0, sink, true);
    if (obj.type.kind === 'array' && obj.type.len! < 0) obj.type = arrayOf(obj.type.base!, sink.maxIndex!);
    return li;
  }

  // initializer = string | "{" init-list "}" | assign   (with brace elision for aggregates)
  private initializer(ty: CType, off: number, sink: InitSink, top: boolean): void {
    const t = this.tok;
    if (ty.kind === 'array') {
      if (isCharType(ty.base!) && (t.kind === 'string' || (this.is('{') && this.peek().kind === 'string'))) {
        const braced = this.consume('{');
        const st = this.tok;
        const bytes = this.stringBytes();
        if (braced) { this.consume(','); this.skip('}'); }
        let n = bytes.length;
        if (ty.len! >= 0) { if (n - 1 > ty.len!) errorAt(st, `initializer string is too long for ${typeName(ty)}`); n = Math.min(n, ty.len!); }
        this.setMax(sink, top, n);
        if (sink.global) { sink.global.ensure(off + n); sink.global.bytes.set(bytes.slice(0, n), off); }
        else {
          sink.local!.zero = true;
          for (let i = 0; i < n; i++) if (bytes[i]) sink.local!.stores.push({ offset: off + i, ty: CHAR, e: num(BigInt(bytes[i]), CHAR, st) });
        }
        return;
      }
      if (this.is('{')) { this.next(); this.arrayInit(ty, off, sink, true, top); return; }
      if (top) errorAt(t, `array ${typeName(ty)} must be initialized with a brace-enclosed list`);
      this.arrayInit(ty, off, sink, false, top);
      return;
    }
    if (ty.kind === 'vector' && this.is('{')) {
      this.next();
      if (sink.local) sink.local.zero = true;
      this.arrayInit(arrayOf(ty.base!, ty.len!), off, sink, true, false);
      return;
    }
    if (isRecord(ty)) {
      if (this.is('{')) { this.next(); this.recordInit(ty, off, sink, true); return; }
      // An expression of the struct's type, or brace elision.
      const save = this.pos;
      if (!this.is('.') && !this.is('[')) {
        this.pins++;
        const e = this.rvalue(this.assign());
        this.pins--;
        if (isRecord(e.ty) && sameType(e.ty, ty)) { this.store(ty, off, e, sink); return; }
        if (isRecord(e.ty) || top) errorAt(t, `incompatible types in initialization: ${typeName(e.ty)} to ${typeName(ty)}`);
        this.pos = save;
      }
      if (top) errorAt(t, `${typeName(ty)} must be initialized with a brace-enclosed list or a value of its type`);
      this.recordInit(ty, off, sink, false);
      return;
    }
    if (this.is('{')) {
      this.next();
      if (this.is('}')) { this.next(); this.storeZero(ty, off, sink); return; }
      this.initializer(ty, off, sink, false);
      this.consume(',');
      this.skip('}', 'after a scalar initializer');
      return;
    }
    const e = this.assign();
    this.store(ty, off, this.convertAssign(e, ty, t, 'initialization'), sink);
  }

  private setMax(sink: InitSink, top: boolean, n: number): void {
    if (!top) return;
    if (sink.global) sink.global.maxIndex = Math.max(sink.global.maxIndex, n);
    else sink.maxIndex = Math.max(sink.maxIndex ?? 0, n);
  }

  private isEnd(): boolean { return this.is('}') || (this.is(',') && this.peek().is('}')); }
  private consumeEnd(): boolean {
    if (this.consume('}')) return true;
    if (this.is(',') && this.peek().is('}')) { this.pos += 2; return true; }
    return false;
  }

  private arrayInit(ty: CType, off: number, sink: InitSink, braced: boolean, top: boolean): void {
    const elem = ty.base!;
    const len = ty.len!;
    const es = elem.size;
    if (len < 0 && !top) errorAt(this.tok, 'initializer for a flexible or incomplete array member');
    let i = 0;
    let max = 0;
    // The fast path for big constant tables: integers (optionally negated) written straight as bytes.
    const g = sink.global;
    if (braced && g && isInteger(elem) && elem.kind !== 'bool') {
      let p = this.pos;
      const put = (v: number) => { g.writeInt(off + i * es, es, v); i++; };
      // Small sized arrays (a box's coordinates) are not worth reading around the tokens.
      const big = len < 0 || len >= MIN_RAW_TABLE;
      this.inTable = big;
      for (;;) {
        if (len >= 0 && i >= len) break;
        // Where the window ends, the elements come straight from the file's text.
        if (big && this.src && p === this.base + this.toks.length && this.pins === 0) {
          const t0 = performance.now();
          const n = this.src.readInts(len >= 0 ? len - i : Infinity, put);
          this.pullMs += performance.now() - t0;
          if (n > 0) continue;
        }
        let t = this.at(p);
        let neg = false;
        if (t.kind === 'punct' && t.text === '-') { neg = true; t = this.at(p + 1); }
        if (t.kind !== 'number') break;
        const sep = this.at(p + (neg ? 2 : 1));
        if (sep.kind !== 'punct' || (sep.text !== ',' && sep.text !== '}')) break;
        const v = fastInt(t.text);
        if (v === undefined) break;
        g.writeInt(off + i * es, es, neg ? -v : v);
        i++;
        p += neg ? 3 : 2;
        if (sep.text === '}') { this.inTable = false; this.pos = p; if (top) g.maxIndex = Math.max(g.maxIndex, i); if (len < 0 || i > max) max = i; this.fillCheck(len, i); return; }
        // A '}' after the ',' (read only when the window holds it: else the file's text is next).
        if (p < this.base + this.toks.length) {
          const close = this.at(p);
          if (close.kind === 'punct' && close.text === '}') { this.inTable = false; this.pos = p + 1; if (top) g.maxIndex = Math.max(g.maxIndex, i); return; }
        }
      }
      this.inTable = false;
      this.pos = p;
      max = i;
    }
    if (braced) {
      // (the fast path stops after a ',', so the next element needs none)
      let first = true;
      while (!this.consumeEnd()) {
        if (!first) this.skip(',', 'between initializers');
        first = false;
        if (this.is('[')) {
          const bt = this.next();
          const v = Number(this.constExpr());
          if (this.consume('...')) errorAt(bt, 'designator ranges are not supported');
          this.skip(']');
          if (v < 0 || (len >= 0 && v >= len)) errorAt(bt, `array index ${v} is past the end of ${typeName(ty)}`);
          i = v;
          this.designation(elem, off + i * es, sink);
        } else {
          if (len >= 0 && i >= len) errorAt(this.tok, `excess elements in the initializer of ${typeName(ty)}`);
          this.initializer(elem, off + i * es, sink, false);
        }
        i++;
        max = Math.max(max, i);
      }
    } else {
      for (; (len < 0 || i < len) && !this.isEnd(); i++) {
        if (i > 0) { if (this.peek().is('.') || this.peek().is('[')) break; this.skip(','); }
        this.initializer(elem, off + i * es, sink, false);
        max = Math.max(max, i + 1);
      }
    }
    this.setMax(sink, top, max);
  }

  private fillCheck(len: number, i: number): void {
    if (len >= 0 && i > len) errorAt(this.tok, 'excess elements in an array initializer');
  }

  // designation = ("." ident | "[" const-expr "]")* "=" initializer
  private designation(ty: CType, off: number, sink: InitSink): void {
    if (this.is('[')) {
      const bt = this.next();
      if (ty.kind !== 'array') errorAt(bt, `array designator for non-array ${typeName(ty)}`);
      const v = Number(this.constExpr());
      this.skip(']');
      if (v < 0 || v >= ty.len!) errorAt(bt, `array index ${v} is past the end of ${typeName(ty)}`);
      this.designation(ty.base!, off + v * ty.base!.size, sink);
      return;
    }
    if (this.is('.')) {
      this.next();
      const nt = this.ident('a member name');
      if (!isRecord(ty)) errorAt(nt, `field designator '.${nt.text}' for non-struct ${typeName(ty)}`);
      const m = findMember(ty, nt.text);
      if (!m) errorAt(nt, `no member named '${nt.text}' in ${typeName(ty)}`);
      if (m.bitWidth !== undefined && !this.is('.') && !this.is('[')) {
        this.skip('=');
        this.bitfieldInit(m, off, sink);
        return;
      }
      this.designation(m.type, off + m.offset, sink);
      return;
    }
    this.consume('=');
    this.initializer(ty, off, sink, false);
  }

  private bitfieldInit(m: Member, off: number, sink: InitSink): void {
    const t = this.tok;
    let e: Expr;
    if (this.consume('{')) { e = this.assign(); this.consume(','); this.skip('}'); } else e = this.assign();
    e = this.convertAssign(e, m.type, t, 'initialization');
    if (sink.global) {
      const v = this.tryEval(e);
      if (v === undefined) errorAt(t, 'initializer element is not a compile-time constant');
      sink.global.writeBits(off + m.offset, m.type.size, m.bitOffset!, m.bitWidth!, v);
    } else sink.local!.stores.push({ offset: off + m.offset, ty: m.type, e, bitWidth: m.bitWidth, bitOffset: m.bitOffset, packed: m.packed });
  }

  private recordInit(ty: CType, off: number, sink: InitSink, braced: boolean): void {
    if (!ty.complete) errorAt(this.tok, `initializing incomplete type ${typeName(ty)}`);
    const members = ty.members!.filter((m) => m.name !== '' || m.bitWidth === undefined);
    if (sink.local) sink.local.zero = true;
    let i = 0;
    if (braced) {
      let first = true;
      while (!this.consumeEnd()) {
        if (!first) this.skip(',', 'between initializers');
        first = false;
        if (this.is('.')) {
          const save = this.pos;
          this.next();
          const nt = this.ident('a member name');
          const idx = members.findIndex((m) => m.name === nt.text);
          if (idx < 0) {
            // A member of an anonymous struct/union member.
            this.pos = save;
            if (!findMember(ty, nt.text)) errorAt(nt, `no member named '${nt.text}' in ${typeName(ty)}`);
            this.designation(ty, off, sink);
            const ai = members.findIndex((m) => m.name === '' && findMember(m.type, nt.text));
            i = ai + 1;
            continue;
          }
          this.pos = save;
          this.designation(ty, off, sink);
          i = idx + 1;
          continue;
        }
        if (ty.kind === 'union' && i > 0) errorAt(this.tok, `excess elements in the initializer of ${typeName(ty)}`);
        if (i >= members.length) errorAt(this.tok, `excess elements in the initializer of ${typeName(ty)}`);
        this.member(members[i], off, sink);
        i++;
      }
      return;
    }
    for (; i < members.length && !this.isEnd(); i++) {
      if (i > 0) { if (this.peek().is('.') || this.peek().is('[')) break; this.skip(','); }
      this.member(members[i], off, sink);
      if (ty.kind === 'union') break;
    }
  }

  private member(m: Member, off: number, sink: InitSink): void {
    if (m.bitWidth !== undefined) this.bitfieldInit(m, off, sink);
    else this.initializer(m.type, off + m.offset, sink, false);
  }

  private storeZero(ty: CType, off: number, sink: InitSink): void {
    if (sink.local) sink.local.stores.push({ offset: off, ty, e: this.cast(num(0n, INT, this.tok), ty) });
  }

  private store(ty: CType, off: number, e: Expr, sink: InitSink): void {
    if (sink.local) { sink.local.stores.push({ offset: off, ty, e }); return; }
    const g = sink.global!;
    if (isRecord(ty) || ty.kind === 'vector') {
      const src = e.k === 'var' && !e.obj.isLocal && e.obj.init ? e.obj.init : undefined;
      if (!src) errorAt(e.tok, 'initializer element is not a compile-time constant');
      g.ensure(off + ty.size);
      g.bytes.set(src.bytes.subarray(0, ty.size), off);
      for (const r of src.relocs) g.relocs.push({ ...r, offset: r.offset + off });
      return;
    }
    const r = evalConst(e);
    if (!r) errorAt(e.tok, 'initializer element is not a compile-time constant');
    if (r.sym !== undefined) {
      if (ty.size !== 4) errorAt(e.tok, 'initializer element is not computable at load time');
      g.relocs.push({ offset: off, symbol: r.sym, addend: Number(BigInt.asIntN(32, r.val)) });
      g.ensure(off + 4);
      return;
    }
    g.writeInt(off, ty.size, r.val);
  }
}

interface InitSink {
  global: ByteWriter | undefined;
  local: LocalInit | undefined;
  maxIndex?: number;
}

/** A growable little-endian byte buffer for static initialisers. */
class ByteWriter {
  bytes: Uint8Array;
  relocs: Reloc[] = [];
  maxIndex = 0;
  constructor(size: number) { this.bytes = new Uint8Array(Math.max(size, 16)); }
  ensure(n: number): void {
    if (n <= this.bytes.length) return;
    const b = new Uint8Array(Math.max(n, this.bytes.length * 2));
    b.set(this.bytes);
    this.bytes = b;
  }
  writeInt(off: number, size: number, v: bigint | number): void {
    this.ensure(off + size);
    const b = this.bytes;
    if (size <= 4) {
      const n = typeof v === 'number' ? v : Number(BigInt.asIntN(32, v));
      b[off] = n; if (size > 1) { b[off + 1] = n >> 8; if (size > 2) { b[off + 2] = n >> 16; b[off + 3] = n >> 24; } }
      return;
    }
    let x = BigInt.asUintN(64, BigInt(v));
    for (let i = 0; i < 8; i++) { b[off + i] = Number(x & 0xffn); x >>= 8n; }
  }
  writeBits(off: number, size: number, bitOff: number, width: number, v: bigint): void {
    this.ensure(off + size);
    let cur = 0n;
    for (let i = size - 1; i >= 0; i--) cur = (cur << 8n) | BigInt(this.bytes[off + i]);
    const mask = ((1n << BigInt(width)) - 1n) << BigInt(bitOff);
    cur = (cur & ~mask) | ((BigInt.asUintN(width, v) << BigInt(bitOff)) & mask);
    // A field may spill into the bytes after its unit (packed structs): write enough bytes.
    const n = Math.max(size, Math.ceil((bitOff + width) / 8));
    this.ensure(off + n);
    for (let i = 0; i < n; i++) { this.bytes[off + i] = Number(cur & 0xffn); cur >>= 8n; }
  }
}

/** A decimal or hex integer without suffix, fast; undefined for anything else. */
function fastInt(s: string): number | undefined {
  const c = s.charCodeAt(0);
  if (c === 48 && s.length > 1) {
    if (s[1] === 'x' || s[1] === 'X') { const v = parseInt(s, 16); return /^0[xX][0-9a-fA-F]{1,8}$/.test(s) ? v : undefined; }
    return undefined;
  }
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return v <= 0x7fffffff ? v : undefined;
}

const TYPE_WORDS = new Set([
  'void', '_Bool', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', 'struct', 'union', 'enum',
  'typedef', 'static', 'extern', 'inline', '__inline', '__inline__', 'const', '__const', '__const__', 'volatile', '__volatile__', 'restrict', '__restrict', '__restrict__',
  'auto', 'register', '_Noreturn', '_Alignas', '__attribute__', '__attribute', '__typeof__', 'typeof', '__typeof', '__builtin_va_list', '_Thread_local', '__extension__',
]);

const BIN_LEVELS: string[][] = [['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
const BIN_LEVEL = new Map(BIN_LEVELS.flatMap((ops, level) => ops.map((op) => [op, level] as const)));

const ASSIGN_OPS: Record<string, BinOp> = {
  '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%', '<<=': '<<', '>>=': '>>', '&=': '&', '|=': '|', '^=': '^',
};

function num(val: bigint, ty: CType, tok: Token): Expr {
  return { k: 'num', ty, tok, val };
}

function unqual(t: CType): CType {
  if (!t.isConst && !t.isVolatile) return t;
  const { isConst, isVolatile, ...rest } = t;
  void isConst; void isVolatile;
  return rest as CType;
}

function isCharType(t: CType): boolean { return t.kind === 'char'; }

function baseScalar(t: CType): CType {
  while (t.kind === 'array') t = t.base!;
  return t;
}

function elemSize(p: CType, t: Token): number {
  const b = p.base!;
  if (b.kind === 'void' || b.kind === 'func') return 1; // GNU: arithmetic on void * as on char *
  if (isRecord(b) && !b.complete) errorAt(t, `arithmetic on a pointer to incomplete type ${typeName(b)}`);
  return b.size;
}

export function isLvalue(e: Expr): boolean {
  switch (e.k) {
    case 'var': case 'deref': case 'str': case 'init': case 'velem': return true;
    case 'member': return true;
    default: return false;
  }
}

/**
 * The bit-field whose value `e` is, as clang-19 sees it for the promotions: a member, an
 * assignment or compound assignment to one, a prefix ++ / -- of one, a comma whose right side
 * is one (a postfix ++ / -- is not: clang gives it the declared type).
 */
function bitFieldOf(e: Expr): Member | undefined {
  switch (e.k) {
    case 'member': return e.m.bitWidth !== undefined ? e.m : undefined;
    case 'assign': case 'opassign': return bitFieldOf(e.a);
    case 'incdec': return e.post ? undefined : bitFieldOf(e.a);
    case 'comma': return bitFieldOf(e.b);
    default: return undefined;
  }
}

/** The integer promotion of an operand: a bit-field's by its width (an `unsigned f : 18` is an int), else by its type. */
function promoted(e: Expr): CType {
  const m = bitFieldOf(e);
  return m ? promoteBitField(m.type, m.bitWidth!) : promote(e.ty);
}

/** The usual arithmetic conversions of two operands, after their promotions. */
function arithType(a: Expr, b: Expr): CType {
  return commonType(promoted(a), promoted(b));
}

function markAddressTaken(e: Expr): void {
  if (e.k === 'var') e.obj.addressTaken = true;
  else if (e.k === 'member' || e.k === 'velem') markAddressTaken(e.a);
}

function isNullConst(e: Expr): boolean {
  if (e.k === 'cast' && e.ty.kind === 'ptr' && e.ty.base!.kind === 'void') return isNullConst(e.a);
  return isInteger(e.ty) && e.k === 'num' && e.val === 0n;
}
