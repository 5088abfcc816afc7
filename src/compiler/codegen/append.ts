// Appending long arrays of C lines. `into.push(...lines)` passes every line as an argument, and
// beyond about a hundred thousand (the tile tables of a layer cut into 50,000 tiles, a large
// weight array) the call overflows the stack (found by the fuzzer).

/** Appends every part's items to `into`, in order; returns `into`. */
export function append<T>(into: T[], ...parts: readonly (readonly T[])[]): T[] {
  for (const p of parts) for (const x of p) into.push(x);
  return into;
}
