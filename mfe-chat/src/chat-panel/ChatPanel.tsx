import { Box, Button, Flex, HStack, Text } from '@chakra-ui/react';
import { MIDDLEWARE_UNAVAILABLE_MESSAGE, type SelectedFunction, type RemoteProps } from '@tessera/contracts';
import { steadyShell } from '@tessera/ui-kit';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { Composer } from '../composer/Composer.js';
import { EditingModeToggle } from '../editing-mode/EditingModeToggle.js';
import { useMiddlewareHealth } from '../health/use-middleware-health.js';
import { createChatStore } from '../messages/chat.store.js';
import { MessageList } from '../messages/MessageList.js';
import { messageFromRecord } from '../messages/stored-message.js';
import { StreamErrorBox } from '../progress/StreamErrorBox.js';
import { StreamProgress } from '../progress/StreamProgress.js';
import { createChatSender, type SendContext } from '../send/chat-sender.js';
import { AiChatContextPanel } from '../sessions/AiChatContextPanel.js';
import { registerChatBridge } from '../solver/chat-bridge.js';
import { setChatReplying } from '../solver/solver.store.js';
import { useSessions } from '../sessions/use-sessions.js';
import { ContextArea } from './ContextArea.js';
import { FunctionPicker } from '../git-functions/FunctionPicker.js';
import { serviceLine, streamingSupported, useCapabilities } from './use-capabilities.js';

/**
 * The chat panel (spec 02 §2): resizable by its left edge, Streaming / Standard and Show /
 * Hide Context toggles, the context area with the AI Chat Context panel, the progress bar
 * with Stop, the message list, the Stream Error box with Reload, Clear, and the composer.
 * Sending needs the ai-middleware's /health to answer.
 */
function ChatPanel({ shell }: RemoteProps) {
  const [streamingChoice, setStreamingChoice] = useState(true);
  const [showContext, setShowContext] = useState(false);
  const [gitFiles, setGitFiles] = useState<string[]>([]);
  const [functions, setFunctions] = useState<SelectedFunction[]>([]);
  const capabilities = useCapabilities(shell.ai);
  const health = useMiddlewareHealth(shell.ai);
  const [store] = useState(createChatStore);
  const chat = useStore(store);
  const sessions = useSessions(shell, (records) => store.getState().replaceAll(records.map(messageFromRecord)));

  const streaming = streamingSupported(capabilities) && streamingChoice;

  // The sender reads the panel's state when it sends, not when it was made.
  const shellRef = useRef(shell);
  shellRef.current = shell;
  const contextRef = useRef<SendContext>({ streaming, gitFiles, functions, sessionId: sessions.currentId });
  contextRef.current = { streaming, gitFiles, functions, sessionId: sessions.currentId };
  const refreshRef = useRef(sessions.refresh);
  refreshRef.current = sessions.refresh;
  const sender = useMemo(
    () => createChatSender(() => shellRef.current, store, () => contextRef.current, () => void refreshRef.current()),
    [store],
  );
  useEffect(() => () => sender.stop(), [sender]);
  // ./RecoveryBanner's Retry is a turn of this chat, and its Rollback is told here.
  useEffect(
    () =>
      registerChatBridge({
        send: (request) => sender.send(request),
        say: (text) => void store.getState().add({ role: 'assistant', content: text }),
      }),
    [sender, store],
  );

  // Spec 02 §8: the warning is told once each time the middleware stops answering.
  useEffect(() => {
    if (health === 'unavailable') store.getState().add({ role: 'system', content: MIDDLEWARE_UNAVAILABLE_MESSAGE });
  }, [health, store]);

  const busy = chat.status === 'streaming';
  // ./RecoveryBanner's Retry waits while a reply is on its way (one request at a time).
  useEffect(() => {
    setChatReplying(busy);
    return () => setChatReplying(false);
  }, [busy]);
  const unavailable = health === 'unavailable' ? MIDDLEWARE_UNAVAILABLE_MESSAGE : health === 'checking' ? 'Checking the AI service...' : undefined;

  return (
    <Flex
      as="aside"
      aria-label="Chat"
      direction="column"
      position="relative"
      height="full"
      // The shell's box sets the width (and its resize handle): the panel fills it.
      width="full"
      borderStartWidth="1px"
      bg="bg"
      data-testid="chat-panel"
    >
      <HStack p="2" gap="2" borderBottomWidth="1px" wrap="wrap">
        <Button
          size="xs"
          variant="outline"
          aria-pressed={streaming}
          disabled={!streamingSupported(capabilities)}
          title={streamingSupported(capabilities) ? 'Switch between streaming and standard replies' : 'Streaming unavailable'}
          onClick={() => setStreamingChoice((on) => !on)}
        >
          {streaming ? 'Streaming' : 'Standard'}
        </Button>
        <Button size="xs" variant="outline" aria-expanded={showContext} onClick={() => setShowContext((on) => !on)}>
          {showContext ? 'Hide Context' : 'Show Context'}
        </Button>
        <EditingModeToggle shell={shell} />
        <Button size="xs" variant="ghost" ms="auto" disabled={busy || chat.messages.length === 0} onClick={() => store.getState().clear()}>
          Clear
        </Button>
      </HStack>
      <Text px="3" py="1" fontSize="xs" color="fg.muted" role="status">
        {serviceLine(capabilities)}
      </Text>
      {showContext && (
        <ContextArea sheet={shell.sheet} files={gitFiles} onFilesChange={setGitFiles}>
          <FunctionPicker ai={shell.ai} selected={functions} onChange={setFunctions} />
          <AiChatContextPanel sessions={sessions} sheet={shell.sheet} gitFiles={gitFiles} messageCount={chat.messages.length} />
        </ContextArea>
      )}
      <MessageList messages={chat.messages} shell={shell} />
      {chat.streamError && chat.status === 'error' && <StreamErrorBox error={chat.streamError} onReload={() => void sender.reload()} />}
      <StreamProgress status={chat.status} stage={chat.stage} progress={chat.progress} queuePosition={chat.queuePosition} outcome={chat.outcome} onStop={sender.stop} />
      <Box>
        <Composer
          onSend={health === 'healthy' ? (m) => void sender.send(m) : undefined}
          unavailable={unavailable}
          busy={busy}
          onStop={sender.stop}
        />
      </Box>
    </Flex>
  );
}

/**
 * What the panel shows from the shell: the sheet's id, name and size (the context lines), the user,
 * the flags. An edit acknowledged (a new version, new headers) does not render the panel again, nor
 * does the selection moving (the context line's selected cell follows it alone, useShellValue); what
 * it sends reads the newest context when it sends.
 */
export default steadyShell(ChatPanel, ({ sheet, user, flags, ai }) => [
  sheet.id,
  sheet.name,
  sheet.size.rows,
  sheet.size.cols,
  user,
  flags,
  ai,
]);
