/**
 * Follows an element's inner size (its `clientWidth` and `clientHeight`) as layout gives it, as an
 * attachment (`{@attach followSize((w, h) => ...)}`). Not `bind:clientWidth`/`bind:clientHeight`: those
 * read the size as soon as the element is built, which lays out the whole page in the middle of the task
 * that builds it (a workbench built while a big import is read, a chart appearing with the first
 * rounds). A `ResizeObserver` reports the size after the browser's own layout, before the next paint.
 */
export function followSize(
  set: (width: number, height: number) => void,
): (element: HTMLElement) => () => void {
  return (element) => {
    const observer = new ResizeObserver(() => set(element.clientWidth, element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  };
}
