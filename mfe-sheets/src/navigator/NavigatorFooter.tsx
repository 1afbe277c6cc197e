import { Box, Text } from '@chakra-ui/react';
import type { ImportCounts } from './use-import-file.js';

export interface NavigatorFooterProps {
  sheets: number;
  groups: number;
  /** The last import's counts, once there was one. */
  imported: ImportCounts | null;
}

/** Spec 01 §2 footer: '{n} sheets • {m} groups', and after an import its 'Updated sheets' and 'New categories'. */
export function NavigatorFooter({ sheets, groups, imported }: NavigatorFooterProps) {
  return (
    <Box px="3" py="1" fontSize="xs" color="fg.muted" data-testid="navigator-footer">
      <Text>
        {sheets} sheets • {groups} groups
      </Text>
      {imported && (
        <Text data-testid="import-counts">
          Updated sheets: {imported.updatedSheets} • New categories: {imported.newCategories}
        </Text>
      )}
    </Box>
  );
}
