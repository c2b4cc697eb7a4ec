/**
 * What Tab does in a code editor: indent (the editor's default) or move the focus on, as everywhere else
 * in the page. One setting for every editor of the page, kept across reloads; whatever it says, Esc then
 * Tab always leaves the editor, so a keyboard user is never trapped in it.
 */
import type { IDisposable, editor as MonacoEditor } from 'monaco-editor/editor/editor.api';

const KEY = 'protoplay:tab-moves-focus';

function storedChoice(): boolean {
  try {
    return localStorage.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

/** The page's choice for the Tab key in editors. */
class TabKeyChoice {
  /** True when Tab moves the focus out of an editor instead of indenting. */
  movesFocus = $state(storedChoice());

  toggle(): void {
    this.movesFocus = !this.movesFocus;
    try {
      localStorage.setItem(KEY, String(this.movesFocus));
    } catch {
      // Not kept (storage refused): the choice still holds for this page.
    }
  }
}

export const tabKey = new TabKeyChoice();

/** Monaco's key codes the escape route needs (numbers of `monaco.KeyCode`, passed in to avoid importing Monaco here). */
export interface EscapeKeys {
  escape: number;
  tab: number;
  shift: number;
}

/**
 * Applies the Tab choice to an editor, and lets Esc then Tab (or Shift+Tab) leave it whatever the choice.
 * Call inside an effect: it reads the choice, and returns what undoes it.
 */
export function applyTabKey(editor: MonacoEditor.IStandaloneCodeEditor, keys: EscapeKeys): () => void {
  const chosen = tabKey.movesFocus;
  editor.updateOptions({ tabFocusMode: chosen });
  let escaped = false;
  const restore = () => {
    if (!escaped) return;
    escaped = false;
    editor.updateOptions({ tabFocusMode: chosen });
  };
  const subscriptions: IDisposable[] = [
    editor.onKeyDown((event) => {
      if (event.keyCode === keys.escape) {
        escaped = true;
        editor.updateOptions({ tabFocusMode: true });
      } else if (event.keyCode !== keys.tab && event.keyCode !== keys.shift) restore();
    }),
    editor.onDidBlurEditorText(restore),
  ];
  return () => subscriptions.forEach((subscription) => subscription.dispose());
}
