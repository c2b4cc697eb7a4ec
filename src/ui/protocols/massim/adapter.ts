/**
 * MASSim's page side: two team editors and the match settings, the world canvas, the timeline with the
 * scores, an agent's point of view, per-agent logs and outcomes. Its transcript stays in the session
 * worker; the views read the news its runner reports (`MassimReading`).
 */
import { massimProtocol } from '../../../core/protocols/massim/protocol';
import { MassimReading } from './reading.svelte';
import { isMassimLink } from './link';
import { pageAdapter } from '../adapter';
import { MassimPage } from './page.svelte';
import Workbench from './Workbench.svelte';

/** The MASSim page adapter. */
export const massimPageAdapter = pageAdapter({
  protocol: massimProtocol,
  usesShellWorkspace: false,
  claimsLink: isMassimLink,
  createPage: (shell) => new MassimPage(shell),
  Workbench,
  createViewState: () => new MassimReading(),
});
