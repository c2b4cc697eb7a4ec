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

  /** The system's colour scheme is dark (followed while the page is open). */
  systemDark = $state(false);

  constructor() {
    if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    this.systemDark = query.matches;
    query.addEventListener('change', () => (this.systemDark = query.matches));
  }

  /** True when the theme is dark now (`auto` follows the system). */
  get dark(): boolean {
    return this.theme === 'auto' ? this.systemDark : this.theme === 'dark';
  }

  /**
   * The code editors' theme now: dark when the page is. Monaco's theme is one for all its editors, so the
   * policy and RDDL editors set the same one.
   */
  get editorTheme(): 'vs' | 'vs-dark' {
    return this.dark ? 'vs-dark' : 'vs';
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
