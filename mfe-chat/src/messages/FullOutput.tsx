import { Box, Button } from '@chakra-ui/react';
import { useState } from 'react';

/** 'Show all' under a message whose printed output was cut to its start (spec 02 §9), and the whole of it once opened. */
export function FullOutput({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Box mt="1">
      <Button size="xs" variant="plain" textDecoration="underline" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Show less' : `Show all (${text.length.toLocaleString('en-US')} characters)`}
      </Button>
      {open && (
        <Box as="pre" aria-label="Whole output" my="1" p="2" borderRadius="md" bg="bg.muted" fontSize="xs" overflow="auto" maxH="80" whiteSpace="pre">
          {text}
        </Box>
      )}
    </Box>
  );
}
