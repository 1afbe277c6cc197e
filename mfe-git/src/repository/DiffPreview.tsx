import { Box, Text } from '@chakra-ui/react';
import { createTwoFilesPatch } from 'diff';
import { useMemo } from 'react';

/** The unified diff of the edit against its base, before committing (the `diff` library). */
export function DiffPreview({ path, before, after }: { path: string; before: string; after: string }) {
  const lines = useMemo(() => {
    if (before === after) return null;
    const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
    // Drop the "Index:"/"===" preamble; keep the ---/+++ header and the hunks.
    return patch.split('\n').filter((line, i) => !(i < 2 && (line.startsWith('Index:') || line.startsWith('==='))));
  }, [path, before, after]);

  return (
    <Box as="section" aria-label="Diff preview" borderWidth="1px" borderRadius="md" overflow="hidden">
      <Text fontWeight="semibold" fontSize="sm" px="3" py="1" borderBottomWidth="1px" bg="bg.muted">
        Diff preview
      </Text>
      {lines === null ? (
        <Text p="3" color="fg.muted" fontSize="sm">
          No changes
        </Text>
      ) : (
        <Box as="pre" data-testid="diff-preview" m="0" p="2" fontFamily="mono" fontSize="xs" overflow="auto" maxH="40vh">
          {lines.map((line, i) => (
            <Box
              as="span"
              key={i}
              display="block"
              className={line.startsWith('+') && !line.startsWith('+++') ? 'diff-add' : line.startsWith('-') && !line.startsWith('---') ? 'diff-del' : undefined}
              bg={line.startsWith('+') && !line.startsWith('+++') ? 'green.subtle' : line.startsWith('-') && !line.startsWith('---') ? 'red.subtle' : undefined}
              color={line.startsWith('@@') ? 'fg.muted' : undefined}
            >
              {line || ' '}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
