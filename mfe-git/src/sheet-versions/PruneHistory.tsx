import { Box, Button, chakra, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { PRUNE_DEFAULTS, PRUNE_TEXTS, describeError, type ShellContext } from '@tessera/contracts';
import { useEffect, useMemo, useState } from 'react';
import { VersionsClient } from './versions.client.js';

/**
 * Prune history, for the sheet's owners only (the api refuses everyone else): a small dialog
 * with the retention to keep, which says before anything happens that a pruned range cannot be
 * undone. The api records the prune in the activity log.
 */
export function PruneHistory({ shell }: { shell: ShellContext }) {
  const sheetId = shell.sheet.id;
  const client = useMemo(() => new VersionsClient(shell.api), [shell.api]);
  const [owner, setOwner] = useState(false);
  const [open, setOpen] = useState(false);
  const [recent, setRecent] = useState<string>(String(PRUNE_DEFAULTS.recent));
  const [daily, setDaily] = useState<string>(String(PRUNE_DEFAULTS.daily));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    setOwner(false);
    setOpen(false);
    setMessage(null);
    if (!sheetId) return;
    let current = true;
    client.level(sheetId).then(
      (level) => current && setOwner(level === 'owner'),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, sheetId]);

  if (!sheetId || !owner) return null;
  const policy = { recent: Number(recent), daily: Number(daily) };
  const valid = Number.isInteger(policy.recent) && policy.recent >= 1 && Number.isInteger(policy.daily) && policy.daily >= 0;

  const prune = async () => {
    setBusy(true);
    try {
      const result = await client.prune(sheetId, policy);
      setMessage(PRUNE_TEXTS.done(result));
      setOpen(false);
      shell.bus.emit('sheet-history-refresh', { sheetId });
    } catch (error) {
      setMessage(PRUNE_TEXTS.failed(describeError(error)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box mt="2">
      {!open && (
        <Button size="2xs" variant="ghost" onClick={() => setOpen(true)}>
          {PRUNE_TEXTS.open}
        </Button>
      )}
      {message && (
        <Text role="status" fontSize="xs" color="fg.muted">
          {message}
        </Text>
      )}
      {open && (
        <Stack as="section" role="dialog" aria-label={PRUNE_TEXTS.title} gap="1.5" p="2" borderWidth="1px" borderRadius="md">
          <Text fontSize="sm" fontWeight="medium">
            {PRUNE_TEXTS.title}
          </Text>
          <Text role="alert" fontSize="xs" color="fg.error">
            {PRUNE_TEXTS.warning}
          </Text>
          <HStack gap="2">
            <chakra.label htmlFor="prune-recent" fontSize="xs" flex="1">
              {PRUNE_TEXTS.recent}
            </chakra.label>
            <Input id="prune-recent" size="xs" w="20" type="number" min={1} value={recent} onChange={(e) => setRecent(e.target.value)} />
          </HStack>
          <HStack gap="2">
            <chakra.label htmlFor="prune-daily" fontSize="xs" flex="1">
              {PRUNE_TEXTS.daily}
            </chakra.label>
            <Input id="prune-daily" size="xs" w="20" type="number" min={0} value={daily} onChange={(e) => setDaily(e.target.value)} />
          </HStack>
          <HStack gap="1" justify="flex-end">
            <Button size="2xs" variant="ghost" onClick={() => setOpen(false)}>
              {PRUNE_TEXTS.cancel}
            </Button>
            <Button size="2xs" colorPalette="red" loading={busy} disabled={!valid} onClick={() => void prune()}>
              {PRUNE_TEXTS.confirm}
            </Button>
          </HStack>
        </Stack>
      )}
    </Box>
  );
}
