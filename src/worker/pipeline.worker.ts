// The pipeline worker: all heavy work (parsing, lowering, simulation) runs here, off the UI
// thread. The UI talks to it through comlink; see client.ts.
import * as Comlink from 'comlink';
import { browserMilp } from './milp-browser';
import { pipelineService } from './service';

Comlink.expose(pipelineService(browserMilp));
