// The token the preprocessor produces and the C parser consumes: one preprocessing token with
// where it was written (file:line:col), the spacing around it, and, for a token that came out of a
// macro expansion, the token the outermost expansion started from (for "in expansion of" notes).

export type TokenKind =
  | 'ident'   // identifiers and keywords (the parser tells them apart)
  | 'number'  // pp-numbers: 42, 0x1fU, 1.5e+3f, 08 (validated by the parser, not here)
  | 'char'    // 'a', L'a', u'a', U'a' (text includes the prefix and quotes)
  | 'string'  // "a", L"a", u"a", U"a", u8"a"
  | 'punct'   // + += ... ## and the rest
  | 'pragma'  // a #pragma line or _Pragma("..."): text is the pragma's body, e.g. "GCC unroll 4"
  | 'other'   // a character no other kind takes (@, `, a stray \); an error if it reaches the parser
  | 'eof';

/** Names of macros a token must not expand again (C99 6.10.3.4; Prosser's hide sets). */
export type HideSet = ReadonlySet<string>;

export class Token {
  // Declared, not initialised: a file's tokens (millions in a weights file) stay small; only
  // tokens a macro expansion produced carry these two.
  /** Set on tokens produced by a macro expansion: the macro name token of the outermost one. */
  declare origin: Token | undefined;
  /** Set on tokens produced by a macro expansion: the macros being expanded. */
  declare hideset: HideSet | undefined;

  constructor(
    public kind: TokenKind,
    public text: string,
    public file: string,
    public line: number,
    public col: number,
    /** Whitespace or a comment precedes the token on its line. */
    public hasSpace: boolean,
    /** First token of its line. */
    public atBol: boolean,
  ) {}

  /** A copy, so that expansion never mutates a token a file's cached token list holds. */
  copy(): Token {
    const t = new Token(this.kind, this.text, this.file, this.line, this.col, this.hasSpace, this.atBol);
    if (this.origin) t.origin = this.origin;
    if (this.hideset) t.hideset = this.hideset;
    return t;
  }

  is(text: string): boolean {
    return this.text === text && (this.kind === 'punct' || this.kind === 'ident');
  }

  /** file:line:col where the token was written (for a macro's tokens: where the macro was used). */
  where(): string {
    const at = this.origin ?? this;
    return `${at.file}:${at.line}:${at.col}`;
  }
}
