/** RDDLSim's page side: the RDDL texts as editor tabs, the domain picker, the quirks switch and notes. */
import { rddlsimProtocol } from '../../../core/protocols/rddlsim/protocol';
import { pageAdapter } from '../adapter';
import Header from './Header.svelte';
import { RddlsimPage } from './page.svelte';
import Workbench from './Workbench.svelte';

/** The RDDLSim page adapter. */
export const rddlsimPageAdapter = pageAdapter({
  protocol: rddlsimProtocol,
  usesShellWorkspace: true,
  createPage: (shell) => new RddlsimPage(shell),
  Header,
  Workbench,
});
