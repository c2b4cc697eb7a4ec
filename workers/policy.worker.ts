/**
 * The policy worker: the user's policy runs here, alone, so a runaway loop blocks nothing but this worker,
 * which the session worker then terminates. A thin Comlink shell over the core policy runtime.
 */
import * as Comlink from 'comlink';
import { PolicyRuntime } from '../src/core/policy/runtime';

// The default endpoint is the worker global scope.
Comlink.expose(new PolicyRuntime());
