import { Badge, Box, Button, Flex, Heading, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import {
  VERSION_LABEL_MAX_LENGTH,
  VERSION_PREVIEW_TEXTS,
  snapshotDeltaLabel,
  versionActions,
  versionName,
  type RemoteProps,
  type SheetVersionEntry,
} from '@tessera/contracts';
import { RelativeTime } from '@tessera/ui-kit';
import { useState } from 'react';
import { PruneHistory } from './PruneHistory.js';
import { useSheetVersions } from './use-sheet-versions.js';

const STATUS_PALETTE = { proposed: 'purple', live: 'green', archived: 'gray' } as const;
const ACTION_TEXT = { accept: VERSION_PREVIEW_TEXTS.accept, checkout: VERSION_PREVIEW_TEXTS.checkout, discard: VERSION_PREVIEW_TEXTS.discard } as const;

/**
 * The git tab's sheet versions, beside the commits (the design's "git and versions"): the
 * current sheet's proposals and versions with status, author, relative time, changed cells and
 * label; Preview, and accept / checkout / discard as the status allows (the live one has none).
 */
export function SheetVersions({ shell }: RemoteProps) {
  const { state, refresh, run, setLabel, preview } = useSheetVersions(shell);
  if (!shell.sheet.id) {
    return (
      <Section onRefresh={null}>
        <Text color="fg.muted" fontSize="sm">
          {VERSION_PREVIEW_TEXTS.versionsNoSheet}
        </Text>
      </Section>
    );
  }
  const now = Date.now();
  return (
    <Section onRefresh={refresh} loading={state.phase === 'loading'}>
      {state.error && (
        <Text role="alert" color="fg.error" fontSize="sm" mb="1">
          {state.error}
        </Text>
      )}
      {state.phase === 'ready' && state.versions.length === 0 && (
        <Text color="fg.muted" fontSize="sm">
          {VERSION_PREVIEW_TEXTS.versionsEmpty}
        </Text>
      )}
      <Box as="ol" aria-label={VERSION_PREVIEW_TEXTS.versionsTitle} listStyleType="none" m="0" p="0">
        {state.versions.map((entry) => (
          <VersionRow
            key={entry.version_id}
            entry={entry}
            now={now}
            busy={state.busy === entry.version_id}
            previewing={state.previewing === entry.version_id}
            onPreview={() => preview(entry)}
            onAction={(action) => void run(entry, action)}
            onLabel={(label) => void setLabel(entry, label)}
          />
        ))}
      </Box>
      <PruneHistory shell={shell} />
    </Section>
  );
}

function Section({ children, onRefresh, loading = false }: { children: React.ReactNode; onRefresh: (() => void) | null; loading?: boolean }) {
  return (
    <Box as="section" aria-labelledby="sheet-versions-title">
      <Flex align="center" gap="2" mb="2">
        <Heading id="sheet-versions-title" size="sm">
          {VERSION_PREVIEW_TEXTS.versionsTitle}
        </Heading>
        {loading && <Spinner size="xs" />}
        {onRefresh && (
          <Button size="2xs" variant="ghost" ms="auto" onClick={onRefresh}>
            {VERSION_PREVIEW_TEXTS.refresh}
          </Button>
        )}
      </Flex>
      {children}
    </Box>
  );
}

interface VersionRowProps {
  entry: SheetVersionEntry;
  now: number;
  busy: boolean;
  previewing: boolean;
  onPreview(): void;
  onAction(action: 'accept' | 'checkout' | 'discard'): void;
  onLabel(label: string): void;
}

function VersionRow({ entry, now, busy, previewing, onPreview, onAction, onLabel }: VersionRowProps) {
  const [naming, setNaming] = useState<string | null>(null);
  const name = versionName(entry);
  return (
    <Box as="li" py="1.5" borderBottomWidth="1px" data-testid="sheet-version" data-status={entry.status}>
      <Stack gap="1">
        <HStack gap="2" wrap="wrap">
          <Text fontSize="sm" fontWeight="medium">
            #{name}
          </Text>
          <Badge size="xs" colorPalette={STATUS_PALETTE[entry.status]}>
            {entry.status}
          </Badge>
          {entry.label && (
            <Badge size="xs" variant="outline">
              {entry.label}
            </Badge>
          )}
          {previewing && <Badge size="xs" colorPalette="yellow">{VERSION_PREVIEW_TEXTS.preview}</Badge>}
        </HStack>
        <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
          <Text as="span">{entry.author ?? VERSION_PREVIEW_TEXTS.unknownAuthor}</Text>
          <RelativeTime iso={entry.created_at} now={now} />
          <Text as="span">{snapshotDeltaLabel(entry.delta_cells)}</Text>
        </HStack>
        {naming !== null ? (
          <HStack
            as="form"
            gap="1"
            onSubmit={(e: React.FormEvent) => {
              e.preventDefault();
              onLabel(naming);
              setNaming(null);
            }}
          >
            <Input size="xs" value={naming} maxLength={VERSION_LABEL_MAX_LENGTH} onChange={(e) => setNaming(e.target.value)} aria-label={`${VERSION_PREVIEW_TEXTS.label} #${name}`} autoFocus />
            <Button size="2xs" type="submit">
              {VERSION_PREVIEW_TEXTS.saveLabel}
            </Button>
          </HStack>
        ) : (
          <HStack gap="1" wrap="wrap">
            <Button size="2xs" variant="outline" onClick={onPreview} aria-label={`${VERSION_PREVIEW_TEXTS.preview} #${name}`}>
              {VERSION_PREVIEW_TEXTS.preview}
            </Button>
            {versionActions(entry.status).map((action) => (
              <Button key={action} size="2xs" variant="outline" loading={busy} onClick={() => onAction(action)} aria-label={`${ACTION_TEXT[action]} #${name}`}>
                {ACTION_TEXT[action]}
              </Button>
            ))}
            {entry.version !== null && (
              <Button size="2xs" variant="ghost" onClick={() => setNaming(entry.label ?? '')} aria-label={`${VERSION_PREVIEW_TEXTS.label} #${name}`}>
                {VERSION_PREVIEW_TEXTS.label}
              </Button>
            )}
          </HStack>
        )}
      </Stack>
    </Box>
  );
}
