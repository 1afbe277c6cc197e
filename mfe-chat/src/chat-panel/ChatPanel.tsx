import { Box, Button, Flex, HStack, Text } from '@chakra-ui/react';
import { CHAT_PANEL_WIDTH, type RemoteProps } from '@tessera/contracts';
import { useState } from 'react';
import { Composer } from '../composer/Composer.js';
import { ContextArea } from './ContextArea.js';
import { ResizeHandle } from './ResizeHandle.js';
import { useCapabilities, type CapabilitiesState } from './use-capabilities.js';

/** The service line under the toggles: what the ai-middleware says it can do. */
function serviceLine(state: CapabilitiesState): string {
  if (state.status === 'loading') return 'Checking the AI service...';
  if (state.status === 'error') return `AI service unavailable: ${state.message}`;
  const { provider, version, streamingSupported } = state.capabilities;
  return `AI service: ${provider} ${version} • ${streamingSupported ? 'Streaming available' : 'Streaming unavailable'}`;
}

/**
 * Why Send is disabled. No reply route exists in this build of the ai-middleware
 * (its /config has no chat capability to report), so sending is never offered.
 */
function sendUnavailable(state: CapabilitiesState): string {
  if (state.status === 'loading') return 'Checking the AI service...';
  if (state.status === 'error') return 'Sending needs the AI service, which did not answer.';
  return `Chat replies are not available in this release (AI service ${state.capabilities.provider} ${state.capabilities.version}).`;
}

/**
 * The chat panel frame (spec 02 §2): resizable by its left edge, Streaming/Standard
 * and Show/Hide Context toggles, the message list and the input. The chat service
 * arrives with the AI issue; until then nothing can be sent, and the panel says so
 * rather than pretending to answer.
 */
export default function ChatPanel({ shell }: RemoteProps) {
  const [width, setWidth] = useState<number>(CHAT_PANEL_WIDTH.default);
  const [streamingChoice, setStreamingChoice] = useState(true);
  const [showContext, setShowContext] = useState(false);
  const capabilities = useCapabilities(shell.ai);

  const streamingSupported = capabilities.status === 'ready' && capabilities.capabilities.streamingSupported;
  const streaming = streamingSupported && streamingChoice;

  return (
    <Flex
      as="aside"
      aria-label="Chat"
      direction="column"
      position="relative"
      height="full"
      width={`${width}px`}
      borderStartWidth="1px"
      bg="bg"
      data-testid="chat-panel"
    >
      <ResizeHandle width={width} onResize={setWidth} />
      <HStack p="2" gap="2" borderBottomWidth="1px" wrap="wrap">
        <Button
          size="xs"
          variant="outline"
          aria-pressed={streaming}
          disabled={!streamingSupported}
          title={streamingSupported ? 'Switch between streaming and standard replies' : 'Streaming unavailable'}
          onClick={() => setStreamingChoice((on) => !on)}
        >
          {streaming ? 'Streaming' : 'Standard'}
        </Button>
        <Button size="xs" variant="outline" aria-expanded={showContext} onClick={() => setShowContext((on) => !on)}>
          {showContext ? 'Hide Context' : 'Show Context'}
        </Button>
      </HStack>
      <Text px="3" py="1" fontSize="xs" color="fg.muted" role="status">
        {serviceLine(capabilities)}
      </Text>
      {showContext && <ContextArea sheetId={shell.sheet.id} />}
      <Box role="log" aria-label="Messages" flex="1" overflowY="auto" p="3" />
      <Composer unavailable={sendUnavailable(capabilities)} />
    </Flex>
  );
}
