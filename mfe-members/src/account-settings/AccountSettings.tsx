import { Box, Button, Field, Heading, Input, Separator, Spinner, Stack, Text } from '@chakra-ui/react';
import { describeError, MESSAGES, type RemoteProps, type User } from '@tessera/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Notice, type NoticeState } from '@tessera/ui-kit';
import { ChangePasswordDialog } from '../dialogs/ChangePasswordDialog.js';
import { ApiTokensSection } from './ApiTokensSection.js';
import { loadMembers } from '../members-api/load-members.js';
import { changeOwnPassword, infoChanges, updateMember } from '../members-api/members.api.js';

type LoadState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; me: User };

/**
 * The account settings view opened from the user menu (spec 01 §2): one's own nickname and
 * email (saved like Edit Info: only non-empty values are sent) and one's password (with the
 * current one), and one's personal API tokens (ApiTokensSection). A saved profile is announced on the bus so the shell's user menu follows.
 */
export default function AccountSettings({ shell }: RemoteProps) {
  const { api, user, bus } = shell;
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [nickname, setNickname] = useState('');
  const [email, setEmail] = useState('');
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    loadMembers(api).then(
      (users) => {
        if (!current) return;
        const me = users.find((u) => u.id === user.id);
        if (!me) return setState({ status: 'error', message: 'Your account was not found' });
        setNickname(me.nickname ?? '');
        setEmail(me.email ?? '');
        setState({ status: 'ready', me });
      },
      (error: unknown) => current && setState({ status: 'error', message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, user.id, attempt]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = infoChanges(nickname, email);
    if (!body || state.status !== 'ready') return;
    setSaving(true);
    setNotice(null);
    try {
      const me = await updateMember(api, user.id, body);
      setState({ status: 'ready', me });
      bus.emit('profile-updated', { userId: me.id, nickname: me.nickname ?? null, email: me.email ?? null });
      setNotice({ status: 'success', title: 'Profile saved' });
    } catch (error) {
      setNotice({ status: 'error', title: MESSAGES.updateFailed, detail: describeError(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box as="section" aria-labelledby="account-settings-title" p="6" maxW="lg">
      <Heading id="account-settings-title" size="lg" mb="4">
        Account Settings
      </Heading>
      {notice && <Notice {...notice} onClose={() => setNotice(null)} mb="3" />}
      {state.status === 'loading' && (
        <Stack direction="row" role="status" gap="2">
          <Spinner size="sm" />
          <Text>Loading account...</Text>
        </Stack>
      )}
      {state.status === 'error' && (
        <Notice status="error" size="md" title="Could not load your account" detail={state.message} action={{ label: 'Retry', onClick: () => setAttempt((n) => n + 1), size: 'sm' }} />
      )}
      {state.status === 'ready' && (
        <Stack gap="5">
          <Text color="fg.muted" data-testid="account-identity">
            {state.me.username} · {state.me.role}
          </Text>
          <Stack as="form" gap="3" onSubmit={save} aria-label="Profile">
            <Field.Root>
              <Field.Label>Nickname</Field.Label>
              <Input value={nickname} onChange={(e) => setNickname(e.target.value)} />
            </Field.Root>
            <Field.Root>
              <Field.Label>Email</Field.Label>
              <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field.Root>
            <Box>
              <Button type="submit" size="sm" loading={saving} disabled={!infoChanges(nickname, email)}>
                Save
              </Button>
            </Box>
          </Stack>
          <Separator />
          <Stack gap="2" align="flex-start">
            <Heading size="sm">Password</Heading>
            <Button size="sm" variant="outline" onClick={() => setChangingPassword(true)}>
              Change Password
            </Button>
          </Stack>
          <Separator />
          <ApiTokensSection api={api} />
        </Stack>
      )}
      <ChangePasswordDialog
        open={changingPassword}
        own
        username={user.username}
        onClose={() => setChangingPassword(false)}
        describeFailure={describeError}
        onSubmit={async ({ current, next }) => {
          await changeOwnPassword(api, { old_password: current, new_password: next });
          setChangingPassword(false);
          setNotice({ status: 'success', title: MESSAGES.passwordUpdated });
        }}
      />
    </Box>
  );
}
