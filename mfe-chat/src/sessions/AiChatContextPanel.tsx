import { Badge, Box, Button, CloseButton, HStack, Input, Stack, Text, Wrap } from '@chakra-ui/react';
import { CONTEXT_FEATURES_UNAVAILABLE, SESSION_TEXTS, columnLabel, relativeTime, type ShellContext } from '@tessera/contracts';
import { useShellValue } from '@tessera/ui-kit';
import { useState, type FormEvent } from 'react';
import type { Sessions } from './use-sessions.js';

export interface AiChatContextPanelProps {
  sessions: Sessions;
  sheet: ShellContext['sheet'];
  gitFiles: string[];
  messageCount: number;
}

/**
 * The AI Chat Context panel (spec 02 §2): New Chat (Create / Cancel), the current session's
 * card, the Switch list with × and its confirmation, and the Workspace Context summary.
 */
export function AiChatContextPanel({ sessions, sheet, gitFiles, messageCount }: AiChatContextPanelProps) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const current = sessions.current;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    if (await sessions.create(name)) {
      setNaming(false);
      setName('');
    }
  };

  return (
    <Box as="section" aria-label="AI Chat Context" mt="3" fontSize="sm">
      <HStack justify="space-between">
        <Text fontWeight="medium">AI Chat Context</Text>
        {!naming && !sessions.unavailable && (
          <Button size="xs" variant="outline" onClick={() => setNaming(true)}>
            New Chat
          </Button>
        )}
      </HStack>

      {sessions.unavailable ? (
        <Text mt="1" color="fg.warning" role="alert" title={sessions.unavailable}>
          {CONTEXT_FEATURES_UNAVAILABLE}
        </Text>
      ) : (
        <>
          {naming && (
            <HStack as="form" mt="2" gap="1" onSubmit={create}>
              <Input size="xs" aria-label="Session name" placeholder="Session name" value={name} autoFocus onChange={(e) => setName(e.target.value)} />
              <Button size="xs" type="submit" disabled={!name.trim()}>
                Create
              </Button>
              <Button
                size="xs"
                variant="ghost"
                onClick={() => {
                  setNaming(false);
                  setName('');
                }}
              >
                Cancel
              </Button>
            </HStack>
          )}
          {sessions.error && (
            <Text mt="1" color="fg.error" role="alert">
              {sessions.error}
            </Text>
          )}

          {current ? (
            <Box mt="2" p="2" borderWidth="1px" borderRadius="md" aria-label="Current session" role="group">
              <Text fontWeight="medium">{current.session_name}</Text>
              <Text fontSize="xs" color="fg.muted">
                {current.message_count} messages • last active {relativeTime(current.last_active)}
              </Text>
              {current.context_summary && <Text fontSize="xs">{current.context_summary}</Text>}
              {current.tags.length > 0 && (
                <Wrap mt="1" gap="1">
                  {current.tags.map((tag) => (
                    <Badge key={tag} size="xs">
                      {tag}
                    </Badge>
                  ))}
                </Wrap>
              )}
            </Box>
          ) : (
            !sessions.loading && (
              <Text mt="2" color="fg.muted">
                {SESSION_TEXTS.noActiveSession}
              </Text>
            )
          )}

          {sessions.sessions.length > 0 && (
            <Box mt="2">
              <Text fontSize="xs" color="fg.muted">
                Switch
              </Text>
              <Stack as="ul" gap="0" aria-label="Sessions" listStyleType="none">
                {sessions.sessions.map((s) => (
                  <Box as="li" key={s.session_id}>
                    <HStack gap="1">
                      <Button
                        size="xs"
                        variant={s.session_id === sessions.currentId ? 'subtle' : 'ghost'}
                        flex="1"
                        justifyContent="flex-start"
                        aria-current={s.session_id === sessions.currentId ? 'true' : undefined}
                        onClick={() => void sessions.switchTo(s.session_id)}
                      >
                        {s.session_name}
                      </Button>
                      <CloseButton size="2xs" aria-label={`Delete ${s.session_name}`} onClick={() => setConfirming(s.session_id)} />
                    </HStack>
                    {confirming === s.session_id && (
                      <HStack role="alertdialog" aria-label="Delete session" gap="1" p="1" bg="bg.muted" borderRadius="sm">
                        <Text fontSize="xs" flex="1">
                          {SESSION_TEXTS.confirmDelete}
                        </Text>
                        <Button
                          size="2xs"
                          colorPalette="red"
                          onClick={() => {
                            setConfirming(null);
                            void sessions.remove(s.session_id);
                          }}
                        >
                          Delete
                        </Button>
                        <Button size="2xs" variant="ghost" onClick={() => setConfirming(null)}>
                          Cancel
                        </Button>
                      </HStack>
                    )}
                  </Box>
                ))}
              </Stack>
            </Box>
          )}
        </>
      )}

      <Box mt="2" aria-label="Workspace Context" role="group">
        <Text fontSize="xs" color="fg.muted">
          Workspace Context
        </Text>
        <Text fontSize="xs">
          Sheet: {sheet.id ? `${sheet.name ?? sheet.id} (${sheet.size.rows} × ${sheet.size.cols})` : 'none'}
          <SelectedCell />
        </Text>
        <Text fontSize="xs">
          Git files: {gitFiles.length} • Messages: {messageCount}
        </Text>
      </Box>
    </Box>
  );
}

/** ' • Selected: B3' for the selected cell: follows the selection alone (the panel does not render for each move). */
function SelectedCell() {
  const cell = useShellValue(({ sheet }) => (sheet.selection ? `${columnLabel(sheet.selection.col)}${sheet.selection.row + 1}` : ''));
  return cell ? <>{` • Selected: ${cell}`}</> : null;
}
