import { Box, Code } from '@chakra-ui/react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Code blocks scroll sideways instead of widening the panel; inline code stays inline. */
const components: Components = {
  pre: ({ children }) => (
    <Box as="pre" my="2" p="2" borderRadius="md" bg="bg.muted" fontSize="xs" overflowX="auto" whiteSpace="pre">
      {children}
    </Box>
  ),
  code: ({ children, className }) =>
    className ? <code className={className}>{children}</code> : <Code size="sm">{children}</Code>,
  table: ({ children }) => (
    <Box overflowX="auto" my="2">
      <table>{children}</table>
    </Box>
  ),
  p: ({ children }) => (
    <Box as="p" my="1">
      {children}
    </Box>
  ),
};

/**
 * A message's text as Markdown with GitHub's tables and fenced code blocks (spec 02 §2 message
 * list). Its own chunk (MessageContent loads it): react-markdown and remark are about 45 KB gz
 * that an empty chat never draws.
 */
export default function MarkdownText({ text }: { text: string }) {
  return (
    <Box fontSize="sm" css={{ '& table': { fontSize: 'xs', borderCollapse: 'collapse' }, '& td, & th': { border: '1px solid', borderColor: 'border', px: '1' } }}>
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </Box>
  );
}
