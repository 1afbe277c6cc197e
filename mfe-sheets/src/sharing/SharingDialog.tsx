import { Box, Button, CloseButton, Flex, HStack, NativeSelect, Spinner, Text } from '@chakra-ui/react';
import { DialogFrame } from '@tessera/ui-kit';
import { ACCESS_LEVELS, EVERYONE_LEVELS, type AccessLevel, type ItemType, type SharingState, type ShellContext, type User } from '@tessera/contracts';
import { useEffect, useState } from 'react';
import { serverMessage } from '../access/server-message.js';
import {
  ADDED_MEMBER_LEVEL,
  directEntries,
  inheritedEveryone,
  inheritedRows,
  LEVEL_LABELS,
  SHARING_TEXTS,
  sharingBody,
  type DraftEntry,
} from './sharing-draft.js';
import { loadMembers, loadSharing, saveSharing } from './sharing.service.js';

export interface SharingTarget {
  type: ItemType;
  id: string;
  name: string;
}

export interface SharingDialogProps {
  shell: Pick<ShellContext, 'api' | 'user'>;
  /** The item whose sharing is shown; null: closed. */
  target: SharingTarget | null;
  onClose(): void;
}

/** The value of the Everyone select that means "no grant here". */
const INHERIT = 'inherit';

/**
 * Who has the item (issue 18): members with their level, "Everyone in the workspace", and who
 * has it through a parent group (read-only, "from <group>"). Owners change the direct grants and
 * Save sends them whole (PUT); everyone else sees the same rows read-only.
 */
export function SharingDialog({ shell, target, onClose }: SharingDialogProps) {
  const [state, setState] = useState<SharingState | null>(null);
  const [entries, setEntries] = useState<DraftEntry[]>([]);
  const [members, setMembers] = useState<User[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { api } = shell;

  useEffect(() => {
    setState(null);
    setEntries([]);
    setError(null);
    if (!target) return;
    let current = true;
    loadSharing(api, target.type, target.id).then(
      (loaded) => {
        if (!current) return;
        setState(loaded);
        setEntries(directEntries(loaded));
        // Only owners add members: nobody else needs the list.
        if (loaded.access === 'owner') {
          loadMembers(api).then(
            (list) => current && setMembers(list),
            (e: unknown) => current && setError(serverMessage(e, SHARING_TEXTS.membersFailed)),
          );
        }
      },
      (e: unknown) => current && setError(serverMessage(e, SHARING_TEXTS.loadFailed)),
    );
    return () => {
      current = false;
    };
  }, [api, target]);

  const editable = state?.access === 'owner';
  const everyone = entries.find((e) => e.user_id === null);
  const people = entries.filter((e) => e.user_id !== null);
  const addable = members.filter((m) => !entries.some((e) => e.user_id === m.id));
  const fallback = state ? inheritedEveryone(state) : null;

  const setLevel = (userId: string | null, level: AccessLevel | typeof INHERIT) => {
    setEntries((list) => {
      const rest = list.filter((e) => e.user_id !== userId);
      if (level === INHERIT) return rest;
      const existing = list.find((e) => e.user_id === userId);
      return existing ? list.map((e) => (e.user_id === userId ? { ...e, level } : e)) : [{ user_id: userId, level, username: null }, ...rest];
    });
  };
  const add = (userId: string) => {
    const member = members.find((m) => m.id === userId);
    if (member) setEntries((list) => [...list, { user_id: member.id, level: ADDED_MEMBER_LEVEL, username: member.username }]);
  };
  const save = async () => {
    if (!target || saving) return;
    setSaving(true);
    setError(null);
    try {
      await saveSharing(api, target.type, target.id, sharingBody(entries));
      onClose();
    } catch (e) {
      setError(serverMessage(e, SHARING_TEXTS.saveFailed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <DialogFrame
      open={target !== null}
      onClose={onClose}
      title={`Share “${target?.name}”`}
      size="md"
      contentProps={{ 'data-testid': 'sharing-dialog' }}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {editable ? 'Cancel' : 'Close'}
          </Button>
          {editable && (
            <Button loading={saving} onClick={() => void save()}>
              Save
            </Button>
          )}
        </>
      }
    >
      <>
        {error && (
          <Text role="alert" color="fg.error" fontSize="sm" mb="2">
            {error}
          </Text>
        )}
        {!state ? (
          !error && (
            <HStack>
              <Spinner size="sm" />
              <Text fontSize="sm">Loading...</Text>
            </HStack>
          )
        ) : (
          <>
            {!editable && (
              <Text fontSize="sm" color="fg.muted" mb="2">
                {SHARING_TEXTS.readOnlyNote}
              </Text>
            )}
            <Box as="ul" m="0" p="0" aria-label="People with access">
              <ShareRow label={SHARING_TEXTS.everyone}>
                <LevelSelect
                  label={SHARING_TEXTS.everyone}
                  value={everyone?.level ?? INHERIT}
                  options={[
                    [INHERIT, `${SHARING_TEXTS.inherit} (${LEVEL_LABELS[fallback!.level]}${fallback!.from ? ` from ${fallback!.from}` : ''})`],
                    ...EVERYONE_LEVELS.map((l) => [l, LEVEL_LABELS[l]] as const),
                  ]}
                  disabled={!editable}
                  onChange={(level) => setLevel(null, level as AccessLevel | typeof INHERIT)}
                />
              </ShareRow>
              {people.map((entry) => {
                const name = entry.username ?? entry.user_id ?? '';
                return (
                  <ShareRow key={entry.user_id} label={entry.user_id === shell.user?.id ? `${name} (you)` : name}>
                    <LevelSelect
                      label={name}
                      value={entry.level}
                      options={ACCESS_LEVELS.map((l) => [l, LEVEL_LABELS[l]] as const)}
                      disabled={!editable}
                      onChange={(level) => setLevel(entry.user_id, level as AccessLevel)}
                    />
                    {editable && <CloseButton size="2xs" aria-label={`Remove ${name}`} onClick={() => setLevel(entry.user_id, INHERIT)} />}
                  </ShareRow>
                );
              })}
            </Box>
            {editable && (
              <NativeSelect.Root size="sm" mt="3" disabled={addable.length === 0}>
                <NativeSelect.Field aria-label={SHARING_TEXTS.addMember} value="" onChange={(e) => add(e.currentTarget.value)}>
                  <option value="">{SHARING_TEXTS.addMember}…</option>
                  {addable.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.username}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            )}
            {inheritedRows(state).length > 0 && (
              <>
                <Text fontSize="xs" fontWeight="semibold" color="fg.muted" mt="4" mb="1">
                  {SHARING_TEXTS.inheritedHeading}
                </Text>
                <Box as="ul" m="0" p="0" aria-label={SHARING_TEXTS.inheritedHeading}>
                  {inheritedRows(state).map((row) => (
                    <ShareRow key={`${row.inherited_from!.id}-${row.user_id ?? 'everyone'}`} label={row.username ?? SHARING_TEXTS.everyone}>
                      <Text fontSize="sm">{LEVEL_LABELS[row.level]}</Text>
                      <Text fontSize="xs" color="fg.muted">
                        from {row.inherited_from!.name}
                      </Text>
                    </ShareRow>
                  ))}
                </Box>
              </>
            )}
          </>
        )}
      </>
    </DialogFrame>
  );
}

function ShareRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex as="li" listStyleType="none" align="center" gap="2" py="1" aria-label={label}>
      <Text fontSize="sm" flex="1" truncate>
        {label}
      </Text>
      {children}
    </Flex>
  );
}

interface LevelSelectProps {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  disabled: boolean;
  onChange(value: string): void;
}

function LevelSelect({ label, value, options, disabled, onChange }: LevelSelectProps) {
  return (
    <NativeSelect.Root size="xs" width="auto" disabled={disabled}>
      <NativeSelect.Field aria-label={`Level for ${label}`} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
