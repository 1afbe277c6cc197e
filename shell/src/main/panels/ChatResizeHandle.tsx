import { Box } from '@chakra-ui/react';
import { CHAT_PANEL_WIDTH } from '@tessera/contracts';
import { useRef, type KeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { clampPanelWidth } from './chat-panel-width.js';

const KEY_STEP_PX = 16;

export interface ChatResizeHandleProps {
  width: number;
  onResize(width: number): void;
}

/**
 * The chat panel's left edge, the only one: dragging it left widens the panel (it sits at
 * the right of the screen). Arrow keys do the same for keyboard users.
 */
export function ChatResizeHandle({ width, onResize }: ChatResizeHandleProps) {
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  const onMouseDown = (event: ReactMouseEvent) => {
    event.preventDefault();
    drag.current = { startX: event.clientX, startWidth: width };
    const move = (e: MouseEvent) => {
      if (drag.current) onResize(clampPanelWidth(drag.current.startWidth + drag.current.startX - e.clientX));
    };
    const up = () => {
      drag.current = null;
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') onResize(clampPanelWidth(width + KEY_STEP_PX));
    else if (event.key === 'ArrowRight') onResize(clampPanelWidth(width - KEY_STEP_PX));
    else return;
    event.preventDefault();
  };

  return (
    <Box
      role="separator"
      aria-label="Resize chat panel"
      aria-orientation="vertical"
      aria-valuenow={width}
      aria-valuemin={CHAT_PANEL_WIDTH.min}
      aria-valuemax={CHAT_PANEL_WIDTH.max}
      tabIndex={0}
      position="absolute"
      insetY="0"
      left="0"
      width="1.5"
      cursor="col-resize"
      zIndex="1"
      _hover={{ bg: 'border.emphasized' }}
      _focusVisible={{ bg: 'colorPalette.focusRing', outline: 'none' }}
      onMouseDown={onMouseDown}
      onKeyDown={onKeyDown}
    />
  );
}
