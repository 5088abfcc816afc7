// The typed syntax tree the parser builds (types are resolved as each node is made, as in
// chibicc) and lower.ts turns into IR. Implicit conversions are explicit 'cast' nodes; pointer
// arithmetic is explicit ('ptradd' scales by the element size, 'ptrdiff' divides by it).
import type { CType, Member } from './ctype';
import type { Token } from './token';

/** A variable or function: locals live in stack slots, globals in data sections. */
export interface Obj {
  name: string;
  type: CType;
  tok: Token;
  isLocal: boolean;
  /** Globals: the symbol (static locals get a unique one). */
  symbol: string;
  isStatic?: boolean;
  isExtern?: boolean;
  isInline?: boolean;
  isDefinition?: boolean;
  /** Parameters: their index. */
  paramIndex?: number;
  align?: number;
  attrs?: Attrs;
  /** Globals with an initialiser. */
  init?: GlobalInit;
  /** Functions with a body. */
  fn?: FuncDef;
  /** Set once its address is taken or it is an aggregate (lowering may keep others in registers). */
  addressTaken?: boolean;
  /** Functions: the first use of floating point in the body (reported if the function is compiled). */
  floatTok?: Token;
}

export interface Attrs {
  section?: string;
  aligned?: number;
  alwaysInline?: boolean;
  noinline?: boolean;
  noreturn?: boolean;
  packed?: boolean;
  used?: boolean;
  weak?: boolean;
  /** `__asm__("reg")` on a local register variable: the register its asm operands use. */
  asmName?: string;
  /** GCC vector_size(n), consumed when the declarator's type is built. */
  vectorSize?: number;
}

/** A global's initial bytes and the addresses stored in them. */
export interface GlobalInit {
  bytes: Uint8Array;
  relocs: Reloc[];
}

export interface Reloc {
  offset: number;
  symbol: string;
  addend: number;
}

export interface FuncDef {
  /** The definition's name (an earlier prototype, e.g. in a header, is the Obj's tok). */
  tok: Token;
  params: Obj[];
  locals: Obj[];
  body: Stmt;
  /** Variadic functions: va_start reads the anonymous arguments. */
  variadic: boolean;
}

export type BinOp = '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { k: 'num'; ty: CType; tok: Token; val: bigint }
  | { k: 'var'; ty: CType; tok: Token; obj: Obj }
  | { k: 'str'; ty: CType; tok: Token; obj: Obj }
  | { k: 'neg' | 'bitnot' | 'lnot' | 'addr' | 'deref'; ty: CType; tok: Token; a: Expr }
  | { k: 'bin'; ty: CType; tok: Token; op: BinOp; a: Expr; b: Expr }
  | { k: 'ptradd'; ty: CType; tok: Token; a: Expr; b: Expr; scale: number }
  | { k: 'ptrdiff'; ty: CType; tok: Token; a: Expr; b: Expr; scale: number }
  | { k: 'land' | 'lor' | 'comma'; ty: CType; tok: Token; a: Expr; b: Expr }
  | { k: 'assign'; ty: CType; tok: Token; a: Expr; b: Expr }
  /** `a op= b`: a is evaluated once; b's value is converted to `opTy`, combined, converted back. */
  | { k: 'opassign'; ty: CType; tok: Token; a: Expr; b: Expr; op: BinOp | 'ptr+' | 'ptr-'; opTy: CType }
  /** ++/-- : `delta` is ±1 (scaled for pointers); `post` returns the old value. */
  | { k: 'incdec'; ty: CType; tok: Token; a: Expr; delta: number; post: boolean }
  | { k: 'cond'; ty: CType; tok: Token; c: Expr; a: Expr; b: Expr }
  | { k: 'cast'; ty: CType; tok: Token; a: Expr }
  | { k: 'member'; ty: CType; tok: Token; a: Expr; m: Member }
  | { k: 'call'; ty: CType; tok: Token; fn: Expr; args: Expr[]; fnType: CType }
  | { k: 'stmtexpr'; ty: CType; tok: Token; body: Stmt[] }
  /** A compound literal or local initialised in an expression: its stores, then the object. */
  | { k: 'init'; ty: CType; tok: Token; obj: Obj; stores: LocalInit }
  | { k: 'vastart'; ty: CType; tok: Token; a: Expr }
  | { k: 'vaarg'; ty: CType; tok: Token; a: Expr }
  /** __builtin_memcpy / memset and friends that lower straight to IR. */
  | { k: 'builtin'; ty: CType; tok: Token; name: string; args: Expr[] }
  /** A vector element, `v[i]` on a GCC vector. */
  | { k: 'velem'; ty: CType; tok: Token; a: Expr; idx: Expr };

/** A local's initialiser: zero-fill its bytes, then these stores (offsets within the object). */
export interface LocalInit {
  zero: boolean;
  stores: { offset: number; ty: CType; e: Expr; bitWidth?: number; bitOffset?: number; packed?: boolean }[];
}

export interface AsmOperand {
  constraint: string;
  e: Expr;
}

export type Stmt =
  | { k: 'expr'; tok: Token; e: Expr }
  | { k: 'return'; tok: Token; e?: Expr }
  | { k: 'if'; tok: Token; c: Expr; then: Stmt; els?: Stmt }
  /** while, for and do-while: `cond` undefined means forever; `pragmas` are the `#pragma`s before it. */
  | { k: 'loop'; tok: Token; init?: Stmt; cond?: Expr; inc?: Expr; body: Stmt; doWhile: boolean; pragmas: string[] }
  | { k: 'block'; tok: Token; body: Stmt[] }
  | { k: 'switch'; tok: Token; c: Expr; body: Stmt; cases: { val: bigint; label: Stmt }[]; dflt?: Stmt }
  | { k: 'case'; tok: Token; body: Stmt }
  | { k: 'break' | 'continue'; tok: Token }
  | { k: 'goto'; tok: Token; label: string }
  | { k: 'label'; tok: Token; label: string; body: Stmt }
  | { k: 'decl'; tok: Token; obj: Obj; init?: LocalInit }
  | { k: 'asm'; tok: Token; template: string; outputs: AsmOperand[]; inputs: AsmOperand[]; clobbers: string[]; volatile: boolean }
  | { k: 'null'; tok: Token };

export interface TranslationUnit {
  /** Globals and functions in definition order. */
  globals: Obj[];
}
