/**
 * aisys's page side: the standard workbench with the aisys settings and agent config beside the run
 * controls, and the runs, rating, run histories with each environment's board, and the HTTP exchanges
 * in the side pane; the environment picker in the header.
 */
import { aisysProtocol } from '../../../core/protocols/aisys/protocol';
import { pageAdapter } from '../adapter';
import Header from './Header.svelte';
import { AisysPage } from './page.svelte';
import Workbench from './Workbench.svelte';

/** The aisys page adapter. */
export const aisysPageAdapter = pageAdapter({
  protocol: aisysProtocol,
  usesShellWorkspace: true,
  createPage: (shell) => new AisysPage(shell),
  Header,
  Workbench,
});
