import { fileURLToPath } from 'node:url';

/** A file of the shared Deeploy test vectors (../shared/deeploy-tests beside the repo). */
export function sharedTest(rel: string): string {
  return fileURLToPath(new URL(`../../shared/deeploy-tests/${rel}`, import.meta.url));
}
