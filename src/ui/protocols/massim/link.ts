/** The MASSim workspace in the share link's fragment (`#m=...`), beside the shell's own parameters. */
import {
  decodeMassimWorkspace,
  massimLinkParameter,
  type MassimWorkspaceData,
} from '../../../core/protocols/massim/playground/workspace-data';

/** True when a link fragment carries a MASSim workspace (the page then opens on MASSim). */
export function isMassimLink(fragment: string): boolean {
  return new URLSearchParams(fragment.replace(/^#/, '')).has(massimLinkParameter);
}

/** The MASSim workspace a link fragment carries, if any (undefined when absent or damaged). */
export function massimWorkspaceFromLink(fragment: string): MassimWorkspaceData | undefined {
  const encoded = new URLSearchParams(fragment.replace(/^#/, '')).get(massimLinkParameter);
  return encoded ? decodeMassimWorkspace(encoded) : undefined;
}
