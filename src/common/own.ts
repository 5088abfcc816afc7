// Records keyed by strings from a model or a user (tensor, node, attribute and op names): read
// and written as own properties only, so that names such as 'constructor', 'toString' or
// '__proto__' are ordinary keys, never Object.prototype's members (a plain `rec[name]` reads
// the inherited function; `rec['__proto__'] = v` replaces the prototype instead of storing v).

/** rec[key] if it is rec's own property, else undefined. */
export function own<T>(rec: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** rec[key] = value as an own, enumerable property, also for '__proto__'. */
export function put<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An empty record without a prototype: no key of it is inherited. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
