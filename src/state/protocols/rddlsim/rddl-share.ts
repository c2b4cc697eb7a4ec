/**
 * The RDDL in shared links, so a teacher can hand out a custom domain: the texts of the domain shown when
 * they differ from the built-in example (or were opened from disk), deflated and base64url-encoded in the
 * `rddl` parameter of the URL fragment, and the quirks switch in `quirks`. Read beside the rest of the
 * shared configuration (`share.ts`), which ignores these parameters.
 */
import { compressToBase64Url, decompressFromBase64Url } from '../../share';
import { sanitizeDraft, type RddlDraft } from './rddl-documents.svelte';

/** The RDDL part of a shared link; every field is optional. */
export interface SharedRddl {
  /** The environment the texts belong to: a built-in example's id, or the opened-files environment. */
  environment?: string;
  /** The texts, when they are not the built-in ones. */
  draft?: RddlDraft;
  quirks?: boolean;
}

/** The compact form in the link: environment, texts as [name, text] pairs, instance. */
interface Packed {
  e: string;
  f: [string, string][];
  i?: string;
}

/** The URL fragment parameters (without `#` or a leading `&`) for the RDDL part of a link. */
export function encodeRddlShare(shared: SharedRddl): string {
  const params = new URLSearchParams();
  if (shared.environment && shared.draft) {
    const packed: Packed = {
      e: shared.environment,
      f: shared.draft.files.map((f) => [f.name, f.text]),
      ...(shared.draft.instance ? { i: shared.draft.instance } : {}),
    };
    params.set('rddl', compressToBase64Url(JSON.stringify(packed)));
  }
  if (shared.quirks !== undefined) params.set('quirks', shared.quirks ? '1' : '0');
  return params.toString();
}

/**
 * Reads the RDDL part of a URL fragment (with or without `#`). A damaged `rddl` parameter is dropped, never
 * fatal; undefined when the fragment carries nothing of it.
 */
export function decodeRddlShare(fragment: string): SharedRddl | undefined {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const shared: SharedRddl = {};
  const quirks = params.get('quirks');
  if (quirks === '1' || quirks === '0') shared.quirks = quirks === '1';
  const packed = params.get('rddl');
  if (packed) {
    try {
      const data = JSON.parse(decompressFromBase64Url(packed)) as Partial<Packed>;
      const files = Array.isArray(data.f)
        ? data.f.map((pair) => (Array.isArray(pair) ? { name: pair[0], text: pair[1] } : undefined))
        : undefined;
      const draft = sanitizeDraft({ files, ...(typeof data.i === 'string' ? { instance: data.i } : {}) });
      if (draft && typeof data.e === 'string') {
        shared.environment = data.e;
        shared.draft = draft;
      }
    } catch {
      // A truncated link loses only its RDDL; the rest still applies.
    }
  }
  return Object.keys(shared).length ? shared : undefined;
}
