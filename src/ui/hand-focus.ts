/**
 * Runs a button's action, then gives the focus the button had to `next`: for a button its own action
 * disables (Stop, Close), which would drop the focus to the page and leave a keyboard user lost.
 */
export function handFocusAfter(event: Event, action: () => void, next: () => HTMLElement | undefined): void {
  const focused = event.currentTarget === document.activeElement;
  action();
  if (focused) next()?.focus();
}
