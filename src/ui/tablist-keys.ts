/**
 * The keys of a tab list (WAI-ARIA tabs, selection follows focus): Left and Right select the previous and
 * next tab, wrapping round, Home and End the first and last; the selected tab then takes the focus. Only
 * the selected tab is a Tab stop (`tabindex` 0, the others -1), so Tab goes on to the tab's panel.
 */
export function tablistKeys<T>(
  event: KeyboardEvent,
  ids: readonly T[],
  selected: T,
  select: (id: T) => void,
  list: HTMLElement | undefined,
): void {
  const position = ids.indexOf(selected);
  const target =
    event.key === 'ArrowRight'
      ? (position + 1) % ids.length
      : event.key === 'ArrowLeft'
        ? (position - 1 + ids.length) % ids.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? ids.length - 1
            : -1;
  if (target < 0 || ids.length === 0) return;
  event.preventDefault();
  select(ids[target]!);
  // The tab is marked selected once the caller's state has been drawn.
  queueMicrotask(() => list?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus());
}
