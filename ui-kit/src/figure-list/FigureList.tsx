import { Box, Image, Link, Text, VStack } from '@chakra-ui/react';
import { type CodeRunFigure, figureDataUrl, figureFileName, figuresOmittedText } from '@tessera/contracts';

export interface FigureListProps {
  /** The figures a run made (Matplotlib PNGs, issue 19), in order. */
  figures: readonly CodeRunFigure[];
  /** How many more the run made than were kept. */
  omitted?: number;
  testId?: string;
}

/** A run's figures, each with its download, and how many were left out; nothing when there are none. */
export function FigureList({ figures, omitted = 0, testId }: FigureListProps) {
  if (figures.length === 0 && omitted === 0) return null;
  return (
    <VStack align="stretch" gap="2" mt="2" role="group" aria-label="Figures" data-testid={testId}>
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
      {omitted > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {figuresOmittedText(omitted)}
        </Text>
      )}
    </VStack>
  );
}
