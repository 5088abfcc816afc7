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
