import { Badge, Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { CodeEditorBoundary } from '../editor/CodeEditorBoundary.js';
import { DiffPreview } from './DiffPreview.js';
import { Recommendations } from './Recommendations.js';
import { useRepository } from './repository-context.js';
import { saveStatusText } from './repository.store.js';
import { GIT_TEXTS, defaultCommitMessage } from './git-texts.js';

/**
 * Editing a file (Edit or New File): the editor, the commit message, Save,
 * the save status with the conflict path (Retry Base, Reset, Cancel), the
 * diff preview and the AI recommendations (spec 02 §4 Code file).
 */
export function EditPane({ sheetVersion }: { sheetVersion?: number }) {
  const edit = useRepository((s) => s.edit);
  const save = useRepository((s) => s.saveStatus);
  const actions = useRepository((s) => s);
  if (!edit) return null;

  const saving = save.kind === 'saving';
  const status = saveStatusText(save);
  const doSave = () => void actions.save(sheetVersion);
  const conflict = save.kind === 'conflict';
  const failed = save.kind === 'failed' || save.kind === 'no-response' || save.kind === 'no-response-verify-failed' || save.kind === 'base-failed';

  return (
    <Stack as="section" aria-label="Editor" gap="3">
      <HStack justify="space-between">
        <Text fontFamily="mono" fontSize="sm">
          {edit.isNew ? 'New file: ' : 'Editing: '}
          {edit.path}
        </Text>
        {conflict && <Badge colorPalette="orange">{GIT_TEXTS.conflictBadge}</Badge>}
      </HStack>
      <Box borderWidth="1px" borderRadius="md" overflow="hidden" h="360px">
        <CodeEditorBoundary path={edit.path} value={edit.draft} onChange={actions.setDraft} onSave={doSave} />
      </Box>
      <HStack gap="2" wrap="wrap">
        <Input
          size="sm"
          flex="1"
          minW="200px"
          aria-label="Commit message"
          placeholder={defaultCommitMessage(edit.path)}
          value={edit.message}
          onChange={(e) => actions.setMessage(e.target.value)}
        />
        <Button size="sm" colorPalette="blue" loading={saving} disabled={saving || edit.draft.trim() === ''} onClick={doSave}>
          Save
        </Button>
        {conflict && (
          <Button size="sm" variant="outline" onClick={() => void actions.retryBase()}>
            Retry Base
          </Button>
        )}
        <Button size="sm" variant="outline" disabled={saving} onClick={actions.reset}>
          Reset
        </Button>
        <Button size="sm" variant="ghost" disabled={saving} onClick={actions.cancel}>
          Cancel
        </Button>
      </HStack>
      {status && (
        <Text role="status" fontSize="sm" color={conflict || failed ? 'fg.error' : 'fg.success'}>
          {status}
          {save.kind === 'failed' && save.detail ? `: ${save.detail}` : ''}
        </Text>
      )}
      {conflict && save.changedFiles.length > 0 && (
        <Text fontSize="xs" color="fg.muted">
          Changed since your base: {save.changedFiles.join(', ')}
        </Text>
      )}
      <DiffPreview path={edit.path} before={edit.original} after={edit.draft} />
      <Recommendations />
    </Stack>
  );
}
