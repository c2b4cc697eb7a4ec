/**
 * What the page does for a link's embedding options once it has restored its state: applies the look
 * (theme, read-only policy, panes), starts the embedding API when framed, and plays at once when the link
 * says `autoplay`.
 */
import { encodeSharedConfig } from '../../state/share';
import type { Exercise } from '../../state/exercise.svelte';
import { pageLook } from '../../ui/page-look.svelte';
import type { ProtocolPage, Shell } from '../../ui/protocols/adapter';
import { applyLinkedConfiguration, type RestoreOptions } from '../startup';
import { startEmbedApi } from './embed-api.svelte';
import type { EmbedConfig } from './embed-messages';

/** What the shell hands over. */
export interface EmbedStart {
  exercise: Exercise;
  shell: Shell;
  /** Every protocol's page state. */
  pages: Readonly<Record<string, ProtocolPage>>;
  /** The page of the protocol picked. */
  page(): ProtocolPage;
  /** How a link's fragment is applied (see `restoreState`). */
  restoreOptions(fragment: string): RestoreOptions;
}

/** The fragment of a configuration handed over by `load`: its fields first, then its link's. */
export function embedConfigFragment(config: EmbedConfig): string {
  const fields = encodeSharedConfig({
    ...(config.protocol !== undefined ? { protocol: config.protocol } : {}),
    ...(config.environment !== undefined ? { environment: config.environment } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.rounds !== undefined ? { rounds: config.rounds } : {}),
    ...(config.code !== undefined ? { code: config.code } : {}),
    ...(config.language !== undefined ? { language: config.language } : {}),
    ...(config.level !== undefined ? { level: config.level } : {}),
  });
  const link = config.link === undefined ? '' : config.link.slice(config.link.indexOf('#') + 1);
  return [fields, link].filter(Boolean).join('&');
}

/** Applies the embedding options; returns what stops the embedding API. */
export function startEmbed(start: EmbedStart): () => void {
  const { exercise, shell, pages } = start;
  const { options } = exercise;
  pageLook.theme = options.theme;
  pageLook.readOnly = options.readonly;
  pageLook.panels = options.panels;
  pageLook.applyTo(document.documentElement);

  const stop = startEmbedApi({
    shell,
    page: start.page,
    exercise,
    async load(config) {
      const fragment = embedConfigFragment(config);
      if (config.protocol !== undefined && !(config.protocol in pages))
        throw new Error(`there is no protocol '${config.protocol}'`);
      applyLinkedConfiguration(
        { workspace: shell.workspace, settings: shell.settings },
        start.restoreOptions(fragment),
      );
      await Promise.all(Object.values(pages).map((page) => page.restore(fragment)));
      if (config.files) {
        const page = start.page();
        if (!page.openTexts) throw new Error(`${shell.protocol.label} opens no text files`);
        page.openTexts(config.files);
      }
    },
  });
  if (options.autoplay) void start.page().run(false);
  return stop;
}
