/**
 * The embedding options a link's fragment carries beside the configuration (docs/embedding.md):
 * `exercise=NAME`, `readonly`, `panels=...`, `autoplay`, `theme=...` and `allow=...` (the origins the
 * embedding API answers). They say how the page is shown and where it stores, never what is played, so
 * they are read apart from the shared configuration and left out of "open in Protoplay" links.
 */

/** The panes an embed may show. */
export const EMBED_PANELS = ['editor', 'log', 'chart', 'state', 'world'] as const;

/** A pane an embed may show. */
export type EmbedPanel = (typeof EMBED_PANELS)[number];

/** The colour theme an embed asks for; `auto` follows the system. */
export type EmbedTheme = 'light' | 'dark' | 'auto';

/** What the fragment says about embedding. */
export interface EmbedOptions {
  /** The exercise's name: its storage key (letters, digits, `.`, `_`, `-`; at most 64). */
  exercise?: string;
  /** The policy can be run but not edited. */
  readonly: boolean;
  /** The panes shown; undefined shows all. */
  panels?: readonly EmbedPanel[];
  /** Runs the configuration once the page has opened. */
  autoplay: boolean;
  theme: EmbedTheme;
  /** Origins the embedding API answers (`*`: any, only when written so). Empty: the page's own origin. */
  allow: readonly string[];
}

/** The fragment parameters that are embedding options. */
export const EMBED_PARAMETERS: readonly string[] = [
  'exercise',
  'readonly',
  'panels',
  'autoplay',
  'theme',
  'allow',
];

const EXERCISE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** A flag parameter is on when present without a value, or with `1`/`true`. */
function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value === '' || value === '1' || value === 'true';
}

/** An origin as `URL.origin` spells it (`https://host:port`), or undefined for anything else. */
export function normaliseOrigin(text: string): string | undefined {
  if (text === '*') return '*';
  try {
    const url = new URL(text);
    const origin = url.origin;
    return origin !== 'null' && (url.protocol === 'https:' || url.protocol === 'http:') ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the embedding options of a fragment (with or without `#`); malformed values are ignored. */
export function readEmbedOptions(fragment: string): EmbedOptions {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const exercise = params.get('exercise') ?? '';
  const panels = params
    .get('panels')
    ?.split(',')
    .map((panel) => panel.trim())
    .filter((panel): panel is EmbedPanel => (EMBED_PANELS as readonly string[]).includes(panel));
  const theme = params.get('theme');
  const allow = (params.get('allow') ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(normaliseOrigin)
    .filter((origin): origin is string => origin !== undefined);
  return {
    ...(EXERCISE_NAME.test(exercise) ? { exercise } : {}),
    readonly: flag(params, 'readonly'),
    ...(panels && panels.length ? { panels: [...new Set(panels)] } : {}),
    autoplay: flag(params, 'autoplay'),
    theme: theme === 'light' || theme === 'dark' ? theme : 'auto',
    allow: [...new Set(allow)],
  };
}

/** The fragment without its embedding options: the configuration a link shares. */
export function configurationFragment(fragment: string): string {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  for (const name of EMBED_PARAMETERS) params.delete(name);
  return params.toString();
}

/** A short, stable digest of a text (FNV-1a, 32 bits, in hex): names a link's storage. */
export function textDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The storage scope of a page: the named exercise's, else, in a frame, the link's own (so two embedded
 * links on one course page keep separate work), else none (the page's own storage, as a plain visit).
 */
export function storageScopeOf(fragment: string, framed: boolean): string | undefined {
  const { exercise } = readEmbedOptions(fragment);
  if (exercise) return `exercise:${exercise}`;
  const configuration = configurationFragment(fragment);
  return framed && configuration ? `link:${textDigest(configuration)}` : undefined;
}
