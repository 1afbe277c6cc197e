import type Handsontable from 'handsontable/base';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { FindController, type FindTarget } from './find-controller.js';

/** Ctrl+F, or Cmd+F on a Mac. */
const isFindKey = (event: KeyboardEvent) => (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f';

/**
 * Focus where Ctrl+F is someone else's: typing in another part of the page (the chat's composer,
 * the navigator's search) or in a dialog over it.
 */
const focusElsewhere = (element: Element | null) =>
  element instanceof HTMLElement &&
  element !== document.body &&
  (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) || element.closest('[role="dialog"], [aria-modal="true"]') !== null);

/**
 * The Workspace's find: Ctrl+F (Cmd+F) while a grid is shown opens the bar instead of the browser's
 * find, which sees only the cells drawn (the grids draw the rows in view): when the sheet screen has
 * focus (inside it, or its grid listening to keys), and when nothing else does (the sheet just opened,
 * a button of the navigator clicked) — not while the user types elsewhere or is in a dialog. `target` is what the grid shown holds; `enabled`: a grid is
 * shown (the data tab, the sheet view). Closing gives the keys back to the grid.
 */
export function useFind(target: FindTarget, enabled: boolean, root: RefObject<HTMLElement | null>, grid: () => Handsontable | null) {
  const current = useRef(target);
  current.current = target;
  const controller = useMemo(() => new FindController(() => current.current), []);
  // Raised at each Ctrl+F: the bar takes the focus again (it may be open already).
  const [opened, setOpened] = useState(0);
  const [open, setOpen] = useState(false);
  const allowed = useRef(enabled);
  allowed.current = enabled;
  const gridOf = useRef(grid);
  gridOf.current = grid;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isFindKey(event) || !allowed.current) return;
      const hot = gridOf.current();
      const focused = root.current?.contains(document.activeElement ?? null) || (hot && !hot.isDestroyed && hot.isListening());
      if (!focused && focusElsewhere(document.activeElement)) return;
      event.preventDefault();
      event.stopPropagation();
      // The grid stops taking keys: what is typed goes to the find box.
      if (hot && !hot.isDestroyed) hot.unlisten();
      setOpen(true);
      setOpened((n) => n + 1);
      // Reopened on a text: searched again (the sheet may have changed meanwhile).
      if (controller.query !== '') controller.setQuery(controller.query);
    };
    // Capture: before the grid's own key handling.
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      controller.stop();
    };
  }, [controller, root]);

  // Another sheet, a reload, a preview opened or closed: the open bar searches what is shown now.
  const shown = target.kind === 'whole' ? target.data : target.kind === 'windowed' ? target.sheet : null;
  useEffect(() => {
    if (open && controller.query !== '') controller.setQuery(controller.query);
  }, [shown]); // eslint-disable-line react-hooks/exhaustive-deps

  // No grid shown (the Code view, another tab): the bar closes.
  useEffect(() => {
    if (!enabled) {
      controller.stop();
      setOpen(false);
    }
  }, [enabled, controller]);

  const close = () => {
    controller.stop();
    setOpen(false);
    const hot = gridOf.current();
    if (hot && !hot.isDestroyed) hot.listen();
  };
  return { open, opened, controller, close };
}
