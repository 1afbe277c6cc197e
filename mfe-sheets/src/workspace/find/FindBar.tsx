import { HStack, IconButton, Input, Text } from '@chakra-ui/react';
import { FIND_QUERY_MAX_CHARS, FIND_TEXTS } from '@tessera/contracts';
import { type KeyboardEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { type FindController, statusText } from './find-controller.js';

export interface FindBarProps {
  controller: FindController;
  /** Raised at each Ctrl+F: the box takes the focus again, its text selected. */
  focusKey: number;
  /** Escape or the close button: the Workspace closes the bar and gives the grid its keys back. */
  onClose(): void;
}

/**
 * The find bar over the grid (Ctrl+F / Cmd+F on the sheet screen): the text to find, 'N of M' or
 * 'No matches', previous and next. Enter goes to the next match, Shift+Enter to the previous one,
 * Escape closes it. It opens focused, on the text last searched (selected, so typing replaces it).
 */
export function FindBar({ controller, focusKey, onClose }: FindBarProps) {
  const status = useSyncExternalStore(
    (listener) => controller.subscribe(listener),
    () => controller.status,
  );
  const [query, setQuery] = useState(controller.query);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusKey]);
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The grid never sees these: Enter would open its editor, Escape is the bar's.
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      controller.go(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };
  const text = statusText(status);
  return (
    <HStack
      data-testid="find-bar"
      role="search"
      aria-label={FIND_TEXTS.label}
      position="absolute"
      top="1"
      right="6"
      zIndex="300"
      gap="1"
      p="1"
      bg="bg.panel"
      borderWidth="1px"
      borderRadius="md"
      boxShadow="md"
    >
      <Input
        ref={input}
        size="xs"
        width="48"
        aria-label={FIND_TEXTS.label}
        placeholder={FIND_TEXTS.placeholder}
        maxLength={FIND_QUERY_MAX_CHARS}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          controller.setQuery(event.target.value);
        }}
        onKeyDown={keyDown}
      />
      <Text data-testid="find-count" fontSize="xs" color="fg.muted" minW="20" aria-live="polite">
        {text}
      </Text>
      <IconButton size="2xs" variant="ghost" aria-label={FIND_TEXTS.previous} title={FIND_TEXTS.previous} onClick={() => controller.go(-1)}>
        ↑
      </IconButton>
      <IconButton size="2xs" variant="ghost" aria-label={FIND_TEXTS.next} title={FIND_TEXTS.next} onClick={() => controller.go(1)}>
        ↓
      </IconButton>
      <IconButton size="2xs" variant="ghost" aria-label={FIND_TEXTS.close} title={FIND_TEXTS.close} onClick={onClose}>
        ✕
      </IconButton>
    </HStack>
  );
}
