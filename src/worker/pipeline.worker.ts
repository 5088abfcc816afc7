// The pipeline worker: all heavy work (parsing, lowering, compiling, simulation) runs here, off
// the UI thread. The UI talks to it through comlink; see client.ts.
import * as Comlink from 'comlink';
import { createMachine, type Machine } from '../sim';
import simWasmUrl from '../sim/build/sim.wasm?url';
import { browserMilp } from './milp-browser';
import { pipelineService } from './service';

let machine: Promise<Machine> | undefined;
// The simulator loads the first time a program runs; a failed load is tried again next time.
const loadMachine = () => (machine ??= createMachine(simWasmUrl).catch((e: unknown) => { machine = undefined; throw e; }));

Comlink.expose(pipelineService(browserMilp, loadMachine, { prebuildWhenIdle: true }));
