import { Box, Button, HStack, Spinner, Text, VStack } from '@chakra-ui/react';
import { AI_CHART_TEXTS, type GitHistoryLink, type ShellContext, figuresNotKeptText } from '@tessera/contracts';
import { FigureList } from '@tessera/ui-kit';
import { useEffect, useRef } from 'react';
import type { ChatMessage } from './chat-message.js';
import { FullOutput } from './FullOutput.js';
import { MessageContent } from './MessageContent.js';

const ROLE_LABELS: Record<ChatMessage['role'], string> = { user: 'You', assistant: 'AI', system: 'System' };

/** A file by its path, a commit by its short hash, else by its message. */
function linkLabel(link: GitHistoryLink): string {
  const commit = link.hash ?? link.commit;
  return link.path ?? link.file_path ?? (commit ? commit.slice(0, 7) : (link.message ?? 'git history'));
}

export interface MessageListProps {
  messages: ChatMessage[];
  shell: ShellContext;
}

/** The message list (spec 02 §2): each message's role and Markdown text, newest at the bottom, kept in view. */
export function MessageList({ messages, shell }: MessageListProps) {
  const end = useRef<HTMLDivElement>(null);
  const lastContent = messages.at(-1)?.content;
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, lastContent]);

  const openGit = () => {
    const id = shell.sheet.id;
    shell.navigate(id ? `/sheets/${encodeURIComponent(id)}?tab=git` : '/sheets?tab=git');
  };

  return (
    <Box role="log" aria-label="Messages" flex="1" overflowY="auto" p="3">
      <VStack align="stretch" gap="3">
        {messages.map((m) => (
          <Box
            key={m.id}
            as="article"
            aria-label={`${ROLE_LABELS[m.role]} message`}
            alignSelf={m.role === 'user' ? 'flex-end' : 'stretch'}
            maxW={m.role === 'user' ? '85%' : 'full'}
            px="3"
            py="2"
            borderRadius="md"
            bg={m.role === 'user' ? 'blue.subtle' : m.role === 'system' ? 'orange.subtle' : 'bg.subtle'}
            color={m.metadata?.error ? 'fg.error' : undefined}
          >
            <Text fontSize="xs" color="fg.muted" mb="1">
              {ROLE_LABELS[m.role]}
            </Text>
            {m.pending && m.content === '' ? (
              <Spinner size="xs" aria-label="Waiting for the reply" />
            ) : m.role === 'user' ? (
              // The user's own text as typed: a pasted script is not Markdown ('# comment' is no heading, its lines stay lines).
              <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
                {m.content}
              </Text>
            ) : (
              <MessageContent text={m.content} />
            )}
            {m.metadata?.fullOutput !== undefined && <FullOutput text={m.metadata.fullOutput} />}
            {(m.metadata?.figures || m.metadata?.figuresOmitted) && (
              <FigureList figures={m.metadata.figures ?? []} omitted={m.metadata.figuresOmitted ?? 0} />
            )}
            {m.metadata?.figuresNotKept && (
              <Text mt="1" fontSize="xs" color="fg.muted">
                {figuresNotKeptText(m.metadata.figuresNotKept)}
              </Text>
            )}
            {m.metadata?.createdSheet && (
              <Button mt="1" size="xs" variant="outline" onClick={() => shell.sheet.open(m.metadata!.createdSheet!.id)}>
                Open {m.metadata.createdSheet.name}
              </Button>
            )}
            {m.metadata?.chart && (
              <Button
                mt="1"
                ml={m.metadata.createdSheet ? '1' : undefined}
                size="xs"
                variant="outline"
                data-testid="show-chart"
                onClick={() => {
                  // The chart's sheet opens (if another is shown), then its Workspace scrolls to the chart and outlines it.
                  const { sheetId, chartId } = m.metadata!.chart!;
                  if (shell.sheet.id !== sheetId) shell.sheet.open(sheetId);
                  shell.bus.emit('chart-focus', { sheetId, chartId });
                }}
              >
                {AI_CHART_TEXTS.show(m.metadata.chart.title)}
              </Button>
            )}
            {m.metadata?.gitLinks && (
              <HStack mt="1" gap="1" wrap="wrap">
                {m.metadata.gitLinks.map((link, i) => (
                  <Button key={i} size="xs" variant="plain" textDecoration="underline" onClick={openGit} title={link.message}>
                    {linkLabel(link)}
                  </Button>
                ))}
              </HStack>
            )}
          </Box>
        ))}
      </VStack>
      <div ref={end} />
    </Box>
  );
}
