import { Box } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';

// Loaded with the first message drawn, not with the panel: an empty chat needs no Markdown.
const MarkdownText = lazy(() => import('./MarkdownText.js'));

/**
 * A message's text as Markdown (MarkdownText). Until its renderer arrives (once per page) the
 * text shows as written, so a reply is never blank while it loads.
 */
export function MessageContent({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <Box fontSize="sm" whiteSpace="pre-wrap">
          {text}
        </Box>
      }
    >
      <MarkdownText text={text} />
    </Suspense>
  );
}
