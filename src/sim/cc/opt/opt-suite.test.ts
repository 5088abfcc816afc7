// The front end's run-time suites again, with every program and the libc optimised at level 2
// (and the IR's invariants checked after every pass): the same outputs as without.
import { setOptLevel } from '../front-util';

setOptLevel(2);

await import('../arith.test');
await import('../bitfields.test');
await import('../control.test');
await import('../funcptr.test');
await import('../gnu.test');
await import('../initialisers.test');
await import('../int64.test');
await import('../pointers.test');
await import('../promotions.test');
await import('../structs.test');
await import('../unions.test');
await import('../varargs.test');
await import('../vectors.test');
