import { Button, Menu, Portal } from '@chakra-ui/react';
import type { ExportFormat } from '@tessera/contracts';

export interface FileMenuProps {
  onSave(): void;
  onExport(format: ExportFormat): void;
  onDuplicate(): void;
  onDelete(): void;
  readOnly?: boolean;
  /** False for non-owners (issue 18): Delete is not offered. */
  canDelete?: boolean;
}

/** The toolbar's File menu (spec 01 §2): Save, Export as CSV / XLSX / JSON, Duplicate, Delete. */
export function FileMenu({ onSave, onExport, onDuplicate, onDelete, readOnly = false, canDelete = true }: FileMenuProps) {
  const actions: Record<string, () => void> = {
    save: onSave,
    'export-csv': () => onExport('csv'),
    'export-xlsx': () => onExport('xlsx'),
    'export-json': () => onExport('json'),
    duplicate: onDuplicate,
    delete: onDelete,
  };
  return (
    <Menu.Root onSelect={({ value }) => actions[value]?.()}>
      <Menu.Trigger asChild>
        <Button size="xs" variant="outline" data-testid="file-menu">
          File
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="save" data-testid="file-save" disabled={readOnly}>
              Save
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="export-csv" data-testid="file-export-csv">
              Export as CSV
            </Menu.Item>
            <Menu.Item value="export-xlsx" data-testid="file-export-xlsx">
              Export as XLSX
            </Menu.Item>
            <Menu.Item value="export-json" data-testid="file-export-json">
              Export as JSON
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="duplicate" data-testid="file-duplicate">
              Duplicate
            </Menu.Item>
            {canDelete && (
              <Menu.Item value="delete" data-testid="file-delete" color="fg.error" disabled={readOnly}>
                Delete
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
