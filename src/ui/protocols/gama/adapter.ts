/**
 * GAMA's page side: the standard workbench with the GAMA settings, the world and the episodes' metrics;
 * the scenario picker in the header.
 */
import { gamaProtocol } from '../../../core/protocols/gama/protocol';
import { pageAdapter } from '../adapter';
import Header from './Header.svelte';
import { GamaPage } from './page.svelte';
import Workbench from './Workbench.svelte';

/** The GAMA page adapter. */
export const gamaPageAdapter = pageAdapter({
  protocol: gamaProtocol,
  usesShellWorkspace: true,
  createPage: (shell) => new GamaPage(shell),
  Header,
  Workbench,
});
