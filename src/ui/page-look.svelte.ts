/**
 * How the page is shown when a link asks (docs/embedding.md): the colour theme, whether the policy can be
 * edited, and which panes show. Set once at start-up from the link's embedding options; the policy editor
 * and the panes read it.
 */
import type { EmbedPanel, EmbedTheme } from '../state/embed-options';

class PageLook {
  theme = $state<EmbedTheme>('auto');
  /** The policy can be run but not edited. */
  readOnly = $state(false);
  /** The panes shown; undefined shows all. */
  panels = $state.raw<readonly EmbedPanel[] | undefined>();

  /** True when the theme is dark now (`auto` follows the system). */
  dark(systemDark: boolean): boolean {
    return this.theme === 'auto' ? systemDark : this.theme === 'dark';
  }

  /** Applies the look to the document: `data-theme`, `data-readonly` and `data-panels` on the root. */
  applyTo(root: HTMLElement): void {
    if (this.theme === 'auto') delete root.dataset.theme;
    else root.dataset.theme = this.theme;
    if (this.readOnly) root.dataset.readonly = '';
    else delete root.dataset.readonly;
    if (this.panels) root.dataset.panels = this.panels.join(' ');
    else delete root.dataset.panels;
  }
}

/** The page's look (one per page). */
export const pageLook = new PageLook();
