// For tests: the typed error a call throws (fails the test when it throws nothing or something else).
import { PlaygroundError, type PlaygroundErrorData } from '../common/errors';

export function errorOf(fn: () => unknown): PlaygroundErrorData {
  try {
    fn();
  } catch (err) {
    if (err instanceof PlaygroundError) return err.data;
    throw err;
  }
  throw new Error('expected a PlaygroundError');
}

/** The error of class `type` a promise rejects with (fails the test when it resolves or rejects with something else). */
export async function rejectionOf<E extends Error>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name}`);
}
