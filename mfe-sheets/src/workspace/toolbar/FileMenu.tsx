import { Button, Menu, Portal, Spinner } from '@chakra-ui/react';
import type { ExportFormat } from '@tessera/contracts';

export interface FileMenuProps {
  onSave(): void;
  onExport(format: ExportFormat): void;
  onDuplicate(): void;
  onDelete(): void;
  readOnly?: boolean;
  /** False for non-owners (issue 18): Delete is not offered. */
  canDelete?: boolean;
  /** The export under way, if any: the menu says so and offers no other until it is done. */
  exporting?: ExportFormat | null;
}

/**
 * What the File button says while the server prepares a file: an XLSX of a large sheet with
 * formulas takes tens of seconds before its first byte (the api computes the values), and a
 * menu that showed nothing invited a second click, a second export queued behind the first.
 */
export const exportingLabel = (format: ExportFormat) => `Exporting ${format.toUpperCase()}…`;

/** The toolbar's File menu (spec 01 §2): Save, Export as CSV / XLSX / JSON, Duplicate, Delete. */
export function FileMenu({ onSave, onExport, onDuplicate, onDelete, readOnly = false, canDelete = true, exporting = null }: FileMenuProps) {
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
        {/* Not the Button's `loading`: that disables it, and Save, Duplicate, Delete stay offered meanwhile. */}
        <Button size="xs" variant="outline" data-testid="file-menu">
          {exporting ? (
            <>
              <Spinner size="xs" /> {exportingLabel(exporting)}
            </>
          ) : (
            'File'
          )}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="save" data-testid="file-save" disabled={readOnly}>
              Save
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="export-csv" data-testid="file-export-csv" disabled={exporting !== null}>
              Export as CSV
            </Menu.Item>
            <Menu.Item value="export-xlsx" data-testid="file-export-xlsx" disabled={exporting !== null}>
              Export as XLSX
            </Menu.Item>
            <Menu.Item value="export-json" data-testid="file-export-json" disabled={exporting !== null}>
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
