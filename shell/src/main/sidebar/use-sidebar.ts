import { useCallback, useEffect, useMemo, useState } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@tessera/contracts';
import { readSidebarCookie, writeSidebarCookie } from './sidebar-cookie.js';
import { useMediaQuery } from './use-media-query.js';

export interface SidebarState {
  /** Below 768 px the sidebar is off-canvas. */
  mobile: boolean;
  /** Desktop: full width (true) or icons only (false). Remembered in a cookie. */
  expanded: boolean;
  /** Mobile: whether the off-canvas sidebar is shown. */
  mobileOpen: boolean;
  toggle(): void;
  closeMobile(): void;
}

/** Sidebar state, with Ctrl/Cmd+B as its toggle (spec 01 §2). */
export function useSidebar(): SidebarState {
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);
  const [expanded, setExpanded] = useState(() => readSidebarCookie());
  const [mobileOpen, setMobileOpen] = useState(false);

  const toggle = useCallback(() => {
    if (mobile) {
      setMobileOpen((open) => !open);
      return;
    }
    setExpanded((was) => {
      writeSidebarCookie(!was);
      return !was;
    });
  }, [mobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'b') {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  // Leaving the mobile layout closes the off-canvas sidebar.
  useEffect(() => {
    if (!mobile) setMobileOpen(false);
  }, [mobile]);

  const closeMobile = useCallback(() => setMobileOpen(false), []);
  // One object while nothing in it changes: the sidebar (memo) renders again only then.
  return useMemo(() => ({ mobile, expanded, mobileOpen, toggle, closeMobile }), [mobile, expanded, mobileOpen, toggle, closeMobile]);
}
