import { Button, Flex, Spinner, Text } from '@chakra-ui/react';
import { VERSION_PREVIEW_TEXTS, previewDifferenceLabel, previewingVersion, versionName } from '@tessera/contracts';
import type { GridDiff } from './grid-diff.js';
import type { PreviewState } from './use-version-preview.js';

export interface PreviewBannerProps {
  state: Exclude<PreviewState, { phase: 'off' }>;
  /** AI Editing Mode's staged edit: the header's badge commits or discards it, not this banner. */
  staged: boolean;
  diff: GridDiff | null;
  onApply(): void;
  onExit(): void;
}

/**
 * The version preview banner (spec 02 §2): 'Previewing version #N' with Apply and Exit Preview,
 * and how many cells differ from the live version (they are highlighted in the grid). For AI
 * Editing Mode's staged edit it says that the header's badge commits or discards it instead.
 */
export function PreviewBanner({ state, staged, diff, onApply, onExit }: PreviewBannerProps) {
  const ready = state.phase === 'ready' ? state : null;
  // Before the version arrives its id names it: a number, or a proposal's uuid (shortened like versionName does).
  const name = state.phase === 'ready' ? versionName(state.version) : /^\d+$/.test(state.versionId) ? state.versionId : state.versionId.slice(0, 8);
  return (
    <Flex role="status" align="center" gap="3" px="3" py="2" bg="yellow.subtle" borderBottomWidth="1px" wrap="wrap" data-testid="preview-banner">
      <Text fontWeight="semibold" fontSize="sm">
        {previewingVersion(name)}
      </Text>
      {state.phase === 'loading' && (
        <Flex align="center" gap="1">
          <Spinner size="xs" />
          <Text fontSize="sm">{VERSION_PREVIEW_TEXTS.loading}</Text>
        </Flex>
      )}
      {state.phase === 'failed' && (
        <Text fontSize="sm" color="fg.error" role="alert" data-testid="preview-error">
          {state.error}
        </Text>
      )}
      {ready && diff && (
        <Text fontSize="sm" color="fg.muted" data-testid="preview-diff-count">
          {previewDifferenceLabel(diff.count)}
        </Text>
      )}
      {staged ? (
        <Text fontSize="sm" ms="auto" data-testid="preview-staged">
          {VERSION_PREVIEW_TEXTS.staged}
        </Text>
      ) : (
        <Flex gap="2" ms="auto">
          <Button size="xs" colorPalette="blue" onClick={onApply} disabled={!ready || ready.version.status === 'live'} loading={ready?.applying}>
            {VERSION_PREVIEW_TEXTS.apply}
          </Button>
          <Button size="xs" variant="outline" onClick={onExit}>
            {VERSION_PREVIEW_TEXTS.exit}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
