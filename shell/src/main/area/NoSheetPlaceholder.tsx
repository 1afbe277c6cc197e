import { Heading, Text, VStack } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';
import { SheetsIcon } from '../icons.js';

/** The data tab with no sheet in the route (spec 01 §2). */
export function NoSheetPlaceholder() {
  return (
    <VStack h="full" justify="center" gap="2" p="8" color="fg.muted" data-testid="no-sheet-selected">
      <SheetsIcon />
      <Heading size="md" color="fg">
        {MESSAGES.noSheetSelected}
      </Heading>
      <Text fontSize="sm">{MESSAGES.noSheetSelectedHint}</Text>
    </VStack>
  );
}
