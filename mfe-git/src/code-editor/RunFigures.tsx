import { Box, Image, Link, Text, VStack } from '@chakra-ui/react';
import { figureDataUrl, figureFileName, figuresOmittedText } from '@tessera/contracts';
import type { Figures } from './run-on-sheet.js';

/** The figures a run made (Matplotlib PNGs, issue 19) under its output, in order, each with a download. */
export function RunFigures({ figures }: { figures: Figures }) {
  if (figures.list.length === 0 && figures.omitted === 0) return null;
  return (
    <VStack align="stretch" gap="2" mt="2" role="group" aria-label="Figures" data-testid="run-figures">
      {figures.list.map((figure, i) => {
        const url = figureDataUrl(figure);
        return (
          <Box as="figure" key={i} m="0">
            <Image src={url} alt={`Figure ${i + 1}`} width={figure.width} height={figure.height} maxW="full" h="auto" bg="white" borderRadius="sm" />
            <Link href={url} download={figureFileName(i)} fontSize="xs" textDecoration="underline">
              Download figure {i + 1} (PNG)
            </Link>
          </Box>
        );
      })}
      {figures.omitted > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {figuresOmittedText(figures.omitted)}
        </Text>
      )}
    </VStack>
  );
}
