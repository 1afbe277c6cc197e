import { Box, Button, HStack, NativeSelect, Text, Textarea } from '@chakra-ui/react';
import { CHAT_INPUT_MAX_HEIGHT_PX } from '@tessera/contracts';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { CHAT_MODES, isChatMode, resolvePrompt, type ChatMode } from './chat-mode.js';

export interface ComposerSend {
  prompt: string;
  mode: ChatMode;
}

export interface ComposerProps {
  /** Absent while there is nothing to send to: Send stays disabled and `unavailable` says why. */
  onSend?: (message: ComposerSend) => void;
  unavailable?: string;
  initialMode?: ChatMode;
  /** A reply is streaming: the button reads Stop and calls onStop. */
  busy?: boolean;
  onStop?: () => void;
}

/** Grows with its text up to the spec's cap, then scrolls. */
function fitHeight(textarea: HTMLTextAreaElement) {
  textarea.style.height = 'auto';
  textarea.style.height = `${Math.min(textarea.scrollHeight, CHAT_INPUT_MAX_HEIGHT_PX)}px`;
}

/**
 * The chat input (spec 02 §2): a textarea where Enter sends and Shift+Enter
 * breaks the line, the mode selector and Send.
 */
export function Composer({ onSend, unavailable, initialMode = 'chat', busy = false, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<ChatMode>(initialMode);
  const reasonId = useId();
  const prompt = resolvePrompt(mode, text);
  const canSend = !!onSend && prompt !== null && !busy;

  const send = () => {
    if (!canSend) return;
    onSend({ prompt, mode });
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME composition's Enter confirms the composition, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  return (
    <Box as="form" onSubmit={onSubmit} p="3" borderTopWidth="1px">
      <Textarea
        aria-label="Message"
        placeholder={mode === 'chat' ? 'Ask about your sheet...' : 'Describe the task (optional)'}
        value={text}
        rows={1}
        resize="none"
        maxHeight={`${CHAT_INPUT_MAX_HEIGHT_PX}px`}
        overflowY="auto"
        onChange={(event) => {
          setText(event.target.value);
          fitHeight(event.target);
        }}
        onKeyDown={onKeyDown}
      />
      <HStack mt="2" gap="2">
        <NativeSelect.Root size="sm" flex="1">
          <NativeSelect.Field
            aria-label="Mode"
            value={mode}
            onChange={(event) => isChatMode(event.target.value) && setMode(event.target.value)}
          >
            {CHAT_MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {busy ? (
          <Button type="button" size="sm" colorPalette="red" onClick={onStop}>
            Stop
          </Button>
        ) : (
          <Button type="submit" size="sm" disabled={!canSend} aria-describedby={unavailable ? reasonId : undefined}>
            Send
          </Button>
        )}
      </HStack>
      {unavailable && (
        <Text id={reasonId} mt="2" fontSize="xs" color="fg.muted">
          {unavailable}
        </Text>
      )}
    </Box>
  );
}
