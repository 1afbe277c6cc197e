import { Box, CloseButton, HStack, Tag, Text, Wrap } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { useState, type DragEvent, type ReactNode } from 'react';

/** dataTransfer type of a file dragged from the git tree (DESIGN.md). */
export const TESSERA_PATH_TYPE = 'application/x-tessera-path';

export interface ContextAreaProps {
  sheet: Pick<ShellContext['sheet'], 'id' | 'name' | 'size'>;
  files: string[];
  onFilesChange(files: string[]): void;
  children?: ReactNode;
}

/** Spec 02 §2: the Active Sheet line, name and rows × cols. */
export function activeSheetLine(sheet: ContextAreaProps['sheet']): string {
  if (!sheet.id) return 'none';
  return `${sheet.name ?? sheet.id} (${sheet.size.rows} rows × ${sheet.size.cols} cols)`;
}

/**
 * What the next message is about (spec 02 §2): the active sheet and the git files dropped
 * here as removable chips; a file already listed is ignored (spec 02 §5).
 */
export function ContextArea({ sheet, files, onFilesChange, children }: ContextAreaProps) {
  const [over, setOver] = useState(false);

  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(TESSERA_PATH_TYPE);
  const onDragOver = (event: DragEvent) => {
    if (!accepts(event)) return;
    event.preventDefault();
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    const path = event.dataTransfer.getData(TESSERA_PATH_TYPE).trim();
    if (!path) return;
    event.preventDefault();
    if (!files.includes(path)) onFilesChange([...files, path]);
  };

  return (
    <Box p="3" borderBottomWidth="1px" fontSize="sm" aria-label="Chat context" role="region" maxH="50%" overflowY="auto">
      <Text>
        <Text as="span" fontWeight="medium">
          Active Sheet:
        </Text>{' '}
        {activeSheetLine(sheet)}
      </Text>
      <Box
        mt="2"
        p="2"
        borderWidth="1px"
        borderStyle="dashed"
        borderRadius="md"
        bg={over ? 'bg.muted' : undefined}
        data-testid="git-files-dropzone"
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <Text fontWeight="medium">Git Files</Text>
        {files.length === 0 ? (
          <Text color="fg.muted">Drop files from the git tree here</Text>
        ) : (
          <Wrap mt="1" gap="1">
            {files.map((path) => (
              <Tag.Root key={path} size="sm">
                <HStack gap="1">
                  <Tag.Label>{path}</Tag.Label>
                  <CloseButton size="2xs" aria-label={`Remove ${path}`} onClick={() => onFilesChange(files.filter((p) => p !== path))} />
                </HStack>
              </Tag.Root>
            ))}
          </Wrap>
        )}
      </Box>
      {children}
    </Box>
  );
}
