import { Box, Button, HStack, Spinner, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useRepository } from './repository-context.js';
import { GIT_TEXTS } from './git-texts.js';

/** The open file, read-only, with Copy and Edit (spec 02 §2). */
export function CodePreview() {
  const view = useRepository((s) => s.view);
  const startEdit = useRepository((s) => s.startEdit);
  const [copied, setCopied] = useState(false);
  if (!view) return null;

  const copy = async () => {
    await navigator.clipboard?.writeText(view.text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <Box as="section" aria-label="Code preview" borderWidth="1px" borderRadius="md" overflow="hidden">
      <HStack justify="space-between" px="3" py="1" borderBottomWidth="1px" bg="bg.muted">
        <Text fontFamily="mono" fontSize="sm" truncate>
          {view.path}
        </Text>
        <HStack gap="1">
          <Button size="xs" variant="outline" disabled={view.status !== 'ready'} onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button size="xs" disabled={view.status !== 'ready'} onClick={startEdit}>
            Edit
          </Button>
        </HStack>
      </HStack>
      {view.status === 'loading' && (
        <Box p="3">
          <Spinner size="sm" />
        </Box>
      )}
      {view.status === 'error' && (
        <Text role="alert" p="3" color="fg.error" title={view.error ?? undefined}>
          {GIT_TEXTS.contentFailed}
        </Text>
      )}
      {view.status === 'ready' &&
        (view.text === '' ? (
          <Text p="3" color="fg.muted">
            {GIT_TEXTS.noContent}
          </Text>
        ) : (
          <Box as="pre" data-testid="code-preview" m="0" p="3" fontFamily="mono" fontSize="sm" overflow="auto" maxH="60vh" whiteSpace="pre">
            {view.text}
          </Box>
        ))}
    </Box>
  );
}
