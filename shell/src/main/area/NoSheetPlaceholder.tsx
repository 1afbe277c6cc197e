import { Flex, Heading, Text, VStack } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';
import { SheetsIcon } from '../icons.js';

/**
 * The data tab with no sheet in the route (spec 01 §2): the sheet toolbar's empty line
 * and the placeholder. Drawn by the shell, so the main screen without a sheet does not
 * load the Workspace remote (and its grid) at all.
 */
export function NoSheetPlaceholder() {
  return (
    <Flex direction="column" h="full">
      <Flex px="3" py="2" borderBottomWidth="1px" data-testid="sheet-toolbar">
        <Text fontSize="sm" color="fg.muted">
          {MESSAGES.noSheetForFileOperations}
        </Text>
      </Flex>
      <VStack flex="1" justify="center" gap="2" p="8" color="fg.muted" data-testid="no-sheet-selected">
        <SheetsIcon />
        <Heading size="md" color="fg">
          {MESSAGES.noSheetSelected}
        </Heading>
        <Text fontSize="sm">{MESSAGES.noSheetSelectedHint}</Text>
      </VStack>
    </Flex>
  );
}
