/**
 * A MASSim team's policy worker: the user's team policy runs here, alone, so a runaway loop blocks nothing
 * but this worker, which the session worker then terminates. A thin Comlink shell over the team runtime.
 */
import * as Comlink from 'comlink';
import { MassimTeamRuntime } from '../src/core/protocols/massim/team-runtime';

// The default endpoint is the worker global scope.
Comlink.expose(new MassimTeamRuntime());
