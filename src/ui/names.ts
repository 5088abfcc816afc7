// Names from a model or a link (a model's, a node's, a tensor's, a file's) as the UI shows them:
// characters that are invisible or that reorder the text around them (bidirectional controls such
// as U+202E, which would show "evil‮txt.exe" as "evilexe.txt"; zero-width and control characters)
// are shown as a visible escape, ⟨U+202E⟩, so what is on screen is what the name holds. One
// helper for every place a name is displayed; the name itself (in the store, in links) is kept.

/**
 * The characters shown escaped: C0 and C1 controls and DEL; the bidirectional embeddings,
 * overrides and isolates (U+202A-202E, U+2066-2069) and marks (U+200E, U+200F, U+061C); zero-width
 * and other invisible format characters (U+00AD, U+180E, U+200B-200D, U+2028-2029, U+2060-2064,
 * U+FEFF, U+FFF9-FFFB); lone surrogates.
 */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const escape = (c: string) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** The name with its invisible and reordering characters shown as ⟨U+XXXX⟩. */
export function shownName(name: string): string {
  return name.replace(HIDDEN, escape);
}

/** Whether the name holds characters shownName escapes. */
export const hasHiddenChars = (name: string): boolean => { HIDDEN.lastIndex = 0; const r = HIDDEN.test(name); HIDDEN.lastIndex = 0; return r; };

/** A message (which may quote names) as shown: like shownName, but its line breaks and tabs stay. */
export function shownText(text: string): string {
  return text.replace(HIDDEN, (c) => (c === '\n' || c === '\t' ? c : escape(c)));
}
