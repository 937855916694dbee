/**
 * Focus after a route change goes to the new page's heading (its h1), so keyboard and screen
 * reader users start at the top of what changed instead of on the page body. Screens may render
 * their heading a moment later (while data loads): wait for it, briefly.
 */

/** Focuses `element` without a visible ring for a pointer user's sake; it stays out of the tab order. */
export function focusWithoutTabStop(element: HTMLElement): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: false });
}

/** The page heading inside `root`: its first h1. */
export function pageHeading(root: ParentNode): HTMLElement | null {
  return root.querySelector('h1');
}

/**
 * Focuses the h1 inside `root` as soon as it exists (within `timeoutMs`); answers a function that
 * cancels the wait. Does nothing when focus has already moved into the page meanwhile (a screen
 * that restores focus to a row wins).
 */
export function focusHeadingWhenReady(root: HTMLElement, timeoutMs = 3000): () => void {
  const startedWith = document.activeElement;
  const tryFocus = () => {
    const heading = pageHeading(root);
    if (!heading) return false;
    const moved =
      document.activeElement !== startedWith &&
      root.contains(document.activeElement) &&
      document.activeElement !== root;
    if (!moved) focusWithoutTabStop(heading);
    return true;
  };
  if (tryFocus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const timer = window.setTimeout(() => stop(), timeoutMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(root, { childList: true, subtree: true });
  return stop;
}
