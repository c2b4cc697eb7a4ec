/** Scrolls an element into view and gives it the focus (made focusable by script if it is not). */
export function bringForward(target: HTMLElement | undefined): void {
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.scrollIntoView({ block: 'nearest' });
  target.focus();
}
