// The one rule for text from the model or the user (graph name, node and tensor names, op types,
// binding reasons, a user op's semantics) that codegen writes into C: inside a comment it is
// `cComment`, inside a string literal `cString` (`cFormat` for a printf format). Identifiers are
// not escaped here: they are made (ctypes.ts `ident`, the sanitize-names pass) or checked (a user
// op's spec) as C identifiers. Whatever the input, the result is one line of printable ASCII
// that cannot end the comment or the literal, start a new one, splice lines or hold a trigraph,
// so the generated file has exactly the lines the generator wrote. Text that needs none of this
// (every clean name) comes back unchanged.

/** Longest text kept of one name in a comment or a literal (the rest is cut, marked with `...`). */
export const MAX_NAME = 256;

const hex2 = (c: number) => c.toString(16).padStart(2, '0');
const hex4 = (c: number) => c.toString(16).padStart(4, '0');

/** A code point outside printable ASCII as `\xNN`, `\uNNNN` or `\UNNNNNNNN` (readable, inert in a comment). */
function shown(cp: number): string {
  if (cp < 0x80) return `\\x${hex2(cp)}`;
  if (cp <= 0xffff) return `\\u${hex4(cp)}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Cuts `s` to at most `max` code points, marking the cut. */
function capped(s: string, max: number): string[] {
  const cps = Array.from(s);
  return cps.length > max ? [...cps.slice(0, max), '.', '.', '.'] : cps;
}

/**
 * `s` as text inside a C block comment: no `*` + `/` or `/` + `*` pair (a space goes between),
 * no line terminator (CR, LF, U+2028/2029 are shown escaped like every other control and
 * non-ASCII character), no backslash (shown `\x5c`, so no line splice), no `??` (the second `?`
 * shown `\x3f`: no trigraph), at most `max` characters. The caller separates it from the comment's
 * own delimiters by a character that is neither `*` nor `/` (a space, say).
 */
export function cComment(s: string, max = MAX_NAME): string {
  let out = '';
  for (const ch of capped(String(s), max)) {
    const cp = ch.codePointAt(0)!;
    let piece: string;
    if (cp === 0x5c) piece = '\\x5c';
    else if (cp < 0x20 || cp >= 0x7f) piece = shown(cp);
    else if (ch === '?' && out.endsWith('?')) piece = '\\x3f';
    else piece = ch;
    const last = out[out.length - 1];
    if ((last === '*' && piece[0] === '/') || (last === '/' && piece[0] === '*')) out += ' ';
    out += piece;
  }
  return out;
}

/**
 * `s` as the body of a C string literal (between the quotes): `"` and `\` escaped, `??` as `?\?`
 * (no trigraph), every control and non-ASCII character as its UTF-8 bytes in 3-digit octal escapes
 * (which, unlike `\x`, cannot swallow a following digit), at most `max` characters.
 */
export function cString(s: string, max = MAX_NAME): string {
  let out = '';
  const utf8 = new TextEncoder();
  for (const ch of capped(String(s), max)) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '?' && out.endsWith('?')) out += '\\?';
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else for (const b of utf8.encode(ch)) out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return out;
}

/** `s` as literal text in a printf format string: `cString` with `%` doubled. */
export function cFormat(s: string, max = MAX_NAME): string {
  return cString(s, max).replace(/%/g, '%%');
}
