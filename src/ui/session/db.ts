// The IndexedDB the sessions live in: one store of session records (by tab id) and one of file
// bytes (by key), shared by the sessions that use the same file. Every call resolves or throws a
// StorageError within a few seconds, whatever the browser does (no IndexedDB, storage blocked,
// full, or an open that never answers), so a broken storage costs a session, never the app.
import type { FileBlob, SessionRecord } from './record';

const DB_NAME = 'deeploy-playground';
const DB_VERSION = 1;
const SESSIONS = 'sessions';
const FILES = 'files';
/** Sessions kept (one per tab that saved one); older ones are pruned with files no session uses. */
export const MAX_SESSIONS = 20;
const TIMEOUT_MS = 5_000;

export type StorageProblem = 'unavailable' | 'full' | 'failed';

export class StorageError extends Error {
  constructor(readonly problem: StorageProblem, message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

/** The error a failed request or transaction becomes: a full storage is told apart. */
function storageError(err: unknown, doing: string): StorageError {
  if (err instanceof StorageError) return err;
  const name = err instanceof DOMException ? err.name : '';
  const msg = err instanceof Error ? err.message : String(err);
  if (name === 'QuotaExceededError') return new StorageError('full', `the browser's storage for this site is full (${doing})`);
  if (name === 'SecurityError' || name === 'InvalidStateError')
    return new StorageError('unavailable', `the browser does not let this page store data (${msg})`);
  return new StorageError('failed', `${doing} failed: ${msg || name || 'unknown error'}`);
}

function withTimeout<T>(work: Promise<T>, doing: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new StorageError('failed', `${doing}: the browser's storage did not answer in ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    work.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(storageError(e, doing)); });
  });
}

let opening: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opening ??= withTimeout(new Promise<IDBDatabase>((resolve, reject) => {
    let req: IDBOpenDBRequest;
    try {
      if (typeof indexedDB === 'undefined') throw new StorageError('unavailable', 'this browser has no IndexedDB');
      req = indexedDB.open(DB_NAME, DB_VERSION);
    } catch (err) {
      reject(err);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(SESSIONS)) db.createObjectStore(SESSIONS, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES, { keyPath: 'key' });
    };
    req.onsuccess = () => {
      const db = req.result;
      // Another tab with a newer app upgrades the database: let it, and open again next time.
      db.onversionchange = () => { db.close(); opening = undefined; };
      resolve(db);
    };
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new StorageError('failed', 'another tab holds an older version of the storage open'));
  }), 'opening the session storage');
  // A failed open is tried again on the next call (the user may free space, close a tab).
  opening.catch(() => { opening = undefined; });
  return opening;
}

/** Runs `body` in one transaction over `stores`; resolves with its result when the transaction commits. */
async function transact<T>(stores: string[], mode: IDBTransactionMode, doing: string,
  body: (tx: IDBTransaction) => Promise<T> | T): Promise<T> {
  const db = await open();
  return withTimeout(new Promise<T>((resolve, reject) => {
    let tx: IDBTransaction;
    try {
      tx = db.transaction(stores, mode);
    } catch (err) {
      reject(err);
      return;
    }
    let result: T;
    tx.oncomplete = () => resolve(result);
    tx.onabort = () => reject(tx.error ?? new StorageError('failed', `${doing} was aborted`));
    // The body chains requests with promises, which keeps the transaction active (their
    // callbacks run in the requests' success events); a failed step aborts it all.
    let work: Promise<T>;
    try {
      work = Promise.resolve(body(tx));
    } catch (err) {
      work = Promise.reject(err);
    }
    work.then((r) => { result = r; }, (err: unknown) => {
      reject(err);
      try { tx.abort(); } catch { /* already finished */ }
    });
  }), doing);
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The raw session record of tab `id` (unchecked: see checkSession), or undefined. */
export function readSession(id: string): Promise<unknown> {
  return transact([SESSIONS], 'readonly', 'reading the session', (tx) => request(tx.objectStore(SESSIONS).get(id)));
}

/** Raw file records by key (unchecked: see checkBlob); undefined for a key not stored. */
export function readFiles(keys: string[]): Promise<unknown[]> {
  return transact([FILES], 'readonly', 'reading the session\'s files', (tx) => {
    const store = tx.objectStore(FILES);
    return Promise.all(keys.map((k) => request(store.get(k))));
  });
}

/**
 * Writes a session and the files it uses (those not stored yet) in one transaction, so a record
 * never points at bytes that are not there. With `prune`, also drops the oldest sessions beyond
 * MAX_SESSIONS and every file no remaining session uses.
 */
export function writeSession(record: SessionRecord, files: FileBlob[], prune: boolean): Promise<void> {
  return transact([SESSIONS, FILES], 'readwrite', 'saving the session', async (tx) => {
    const sessions = tx.objectStore(SESSIONS), store = tx.objectStore(FILES);
    await Promise.all(files.map(async (f) => {
      if ((await request(store.getKey(f.key))) === undefined) await request(store.put(f));
    }));
    await request(sessions.put(record));
    if (!prune) return;
    const all = (await request(sessions.getAll())) as Partial<SessionRecord>[];
    all.sort((a, b) => (b.savedAt ?? 0) - (a.savedAt ?? 0));
    const kept = all.filter((s, i) => s.id === record.id || i < MAX_SESSIONS);
    await Promise.all(all.filter((s) => !kept.includes(s) && typeof s.id === 'string').map((s) => request(sessions.delete(s.id!))));
    const used = new Set<string>();
    for (const s of kept) for (const key of fileKeysOf(s)) used.add(key);
    const keys = await request(store.getAllKeys());
    await Promise.all(keys.filter((k) => typeof k === 'string' && !used.has(k)).map((k) => request(store.delete(k))));
  });
}

/** The file keys a (possibly malformed) stored session refers to. */
function fileKeysOf(s: Partial<SessionRecord>): string[] {
  const m = s.model as Record<string, { key?: unknown } | undefined> | null | undefined;
  if (!m || typeof m !== 'object') return [];
  return ['model', 'inputs', 'outputs'].map((r) => m[r]?.key).filter((k): k is string => typeof k === 'string');
}

