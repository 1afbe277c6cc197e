import { Badge, Button, ButtonGroup, Flex, Text } from '@chakra-ui/react';
import { MESSAGES, SAVE_STATUS_LABELS, type ExportFormat, type SheetSize } from '@tessera/contracts';
import type { ReactElement, ReactNode } from 'react';
import type { SaveStatus } from '../session/save-status.js';
import { FileMenu } from './FileMenu.js';

export type WorkspaceView = 'sheet' | 'code';

export interface SheetToolbarProps {
  /**
   * Null: no sheet, the toolbar only says how to get one. The status: a save status shown as its
   * badge, or the element that shows it (the Workspace's follows the edits itself: LiveSaveStatus).
   */
  sheet: { name: string; size: SheetSize; status: SaveStatus | ReactElement } | null;
  view: WorkspaceView;
  onViewChange(view: WorkspaceView): void;
  onSave(): void;
  onExport(format: ExportFormat): void;
  /** The export under way (FileMenu). */
  exporting?: ExportFormat | null;
  onDuplicate(): void;
  onDelete(): void;
  readOnly?: boolean;
  /** The user may only view the sheet (issue 18): the 'View only' badge. */
  viewOnly?: boolean;
  /** Only owners delete (issue 18); others get no Delete. */
  canDelete?: boolean;
  /** The Timeline menu, shown next to the File menu (the Workspace builds it: it needs the api and the session). */
  timeline?: ReactNode;
  /** 'Insert chart' (issue 20), after the Timeline menu. */
  charts?: ReactNode;
}

const STATUS_PALETTE: Record<SaveStatus, string> = { error: 'red', saved: 'green', unsaved: 'orange' };

/** The toolbar's badge for a member who may only view the sheet (issue 18). */
export const VIEW_ONLY_LABEL = 'View only';

/** 'N rows × M cols' */
export const sizeLabel = (size: SheetSize) => `${size.rows} rows × ${size.cols} cols`;

/** The save status's badge. */
export function SaveStatusBadge({ status }: { status: SaveStatus }) {
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} data-testid="save-status">
      {SAVE_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * The sheet toolbar (spec 01 §2): save status, the size, the File menu, the Sheet / Code
 * switch, and the Timeline menu next to the File menu.
 */
export function SheetToolbar({ sheet, view, onViewChange, readOnly, viewOnly = false, canDelete = true, timeline, charts, ...commands }: SheetToolbarProps) {
  if (!sheet) {
    return (
      <Flex px="3" py="2" borderBottomWidth="1px" data-testid="sheet-toolbar">
        <Text fontSize="sm" color="fg.muted">
          {MESSAGES.noSheetForFileOperations}
        </Text>
      </Flex>
    );
  }
  return (
    <Flex px="3" py="2" gap="3" align="center" borderBottomWidth="1px" data-testid="sheet-toolbar" wrap="wrap">
      <Text fontWeight="semibold" fontSize="sm" truncate maxW="20rem" data-testid="sheet-name">
        {sheet.name}
      </Text>
      {typeof sheet.status === 'string' ? <SaveStatusBadge status={sheet.status} /> : sheet.status}
      {viewOnly && (
        <Badge colorPalette="gray" variant="outline" data-testid="view-only">
          {VIEW_ONLY_LABEL}
        </Badge>
      )}
      <Text fontSize="sm" color="fg.muted" data-testid="sheet-size">
        {sizeLabel(sheet.size)}
      </Text>
      <FileMenu readOnly={readOnly} canDelete={canDelete} {...commands} />
      {timeline}
      {charts}
      <ButtonGroup size="xs" variant="outline" attached ms="auto">
        <Button data-testid="view-sheet" aria-pressed={view === 'sheet'} variant={view === 'sheet' ? 'solid' : 'outline'} onClick={() => onViewChange('sheet')}>
          Sheet
        </Button>
        <Button data-testid="view-code" aria-pressed={view === 'code'} variant={view === 'code' ? 'solid' : 'outline'} onClick={() => onViewChange('code')}>
          Code
        </Button>
      </ButtonGroup>
    </Flex>
  );
}
