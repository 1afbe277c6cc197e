import { Box, Image, Link, Text, VStack } from '@chakra-ui/react';
import { type CodeRunFigure, figureDataUrl, figureFileName, figuresOmittedText } from '@tessera/contracts';

/** The figures a run made (Matplotlib PNGs, issue 19), in order, each with a download; and how many were left out. */
export function ResultFigures({ figures, omitted }: { figures: CodeRunFigure[]; omitted?: number }) {
  return (
    <VStack align="stretch" gap="2" mt="2" aria-label="Figures" role="group">
      {figures.map((figure, i) => {
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
      {omitted ? (
        <Text fontSize="xs" color="fg.muted">
          {figuresOmittedText(omitted)}
        </Text>
      ) : null}
    </VStack>
  );
}
