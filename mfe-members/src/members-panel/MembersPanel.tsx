import { Badge, Box, Button, Heading, HStack, Spinner, Table, Text } from '@chakra-ui/react';
import { describeError, isAdminLike, MESSAGES, type RemoteProps, type User } from '@tessera/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ConfirmDialog, Notice, type NoticeState } from '@tessera/ui-kit';
import { ActivityScreen } from '../activity/ActivityScreen.js';
import { AddMemberDialog } from '../dialogs/AddMemberDialog.js';
import { ChangePasswordDialog } from '../dialogs/ChangePasswordDialog.js';
import { loadMembers } from '../members-api/load-members.js';
import { changeOwnPassword, createMember, deleteMember, infoChanges, updateMember } from '../members-api/members.api.js';
import { onlineUserIds } from '../presence/online-users.js';
import { MemberRow, type RowAction } from './MemberRow.js';

type MembersState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; users: User[] };

/**
 * The Members panel (spec 01 §2, §4), which is also the users list screen: it reloads the
 * list when it opens, marks who is online and counts them. Admin-like users get the Actions
 * column, Refresh and Add Member; the server enforces the same rules.
 */
export default function MembersPanel({ shell }: RemoteProps) {
  const { api, user } = shell;
  const admin = isAdminLike(user.role);
  const [state, setState] = useState<MembersState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [editing, setEditing] = useState<{ id: string; nickname: string; email: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const [passwordFor, setPasswordFor] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  // Admins switch the panel to the Activity screen and back; others never see it.
  const [view, setView] = useState<'members' | 'activity'>('members');

  useEffect(() => {
    let current = true;
    // A Refresh keeps the table on screen; only the first load shows the loading state.
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    loadMembers(api).then(
      (users) => current && setState({ status: 'ready', users }),
      (error: unknown) => current && setState({ status: 'error', message: describeError(error) }),
    );
    // A reply that arrives after unmount or a newer load is dropped.
    return () => {
      current = false;
    };
  }, [api, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const online = useMemo(() => onlineUserIds(shell), [shell]);
  const onlineCount = state.status === 'ready' ? state.users.filter((u) => online.has(u.id)).length : online.size;

  const onAction = (member: User, action: RowAction) => {
    setNotice(null);
    if (action === 'edit') setEditing({ id: member.id, nickname: member.nickname ?? '', email: member.email ?? '' });
    if (action === 'password') setPasswordFor(member);
    if (action === 'delete') setDeleting(member);
    if (action === 'promote') {
      updateMember(api, member.id, { role: 'admin' }).then(reload, (error: unknown) =>
        setNotice({ status: 'error', title: MESSAGES.promoteFailed, detail: describeError(error) }),
      );
    }
  };

  const saveEdit = async () => {
    if (!editing) return;
    const body = infoChanges(editing.nickname, editing.email);
    setSaving(true);
    try {
      if (body) await updateMember(api, editing.id, body);
      setEditing(null);
      reload();
    } catch (error) {
      setNotice({ status: 'error', title: MESSAGES.updateFailed, detail: describeError(error) });
    } finally {
      setSaving(false);
    }
  };

  const confirmDelete = async () => {
    const member = deleting;
    setDeleting(null);
    if (!member) return;
    try {
      await deleteMember(api, member.id);
    } catch {
      // A failed delete is silently ignored (spec 01 §8); the list below shows what is true.
    }
    reload();
  };

  if (admin && view === 'activity') {
    return (
      <Box as="section" aria-labelledby="activity-title" p="4">
        <ActivityScreen api={api} members={state.status === 'ready' ? state.users : []} onBack={() => setView('members')} />
      </Box>
    );
  }

  return (
    <Box as="section" aria-labelledby="members-title" p="4">
      <HStack justify="space-between" mb="3" gap="2" wrap="wrap">
        <HStack gap="2">
          <Heading id="members-title" size="md">
            Members
          </Heading>
          <Badge colorPalette="green" variant="subtle" data-testid="members-online-count">
            {onlineCount} online
          </Badge>
        </HStack>
        {admin && (
          <HStack gap="2">
            <Button size="xs" variant="outline" onClick={() => setView('activity')}>
              Activity
            </Button>
            <Button size="xs" variant="outline" onClick={reload}>
              Refresh
            </Button>
            <Button size="xs" onClick={() => setAdding(true)}>
              Add Member
            </Button>
          </HStack>
        )}
      </HStack>
      {notice && <Notice {...notice} onClose={() => setNotice(null)} mb="3" />}
      {state.status === 'loading' && (
        <HStack role="status" gap="2">
          <Spinner size="sm" />
          <Text>Loading members...</Text>
        </HStack>
      )}
      {state.status === 'error' && (
        <Notice status="error" size="md" title="Could not load members" detail={state.message} action={{ label: 'Retry', onClick: reload, size: 'sm' }} />
      )}
      {state.status === 'ready' && (
        <Table.Root size="sm" variant="line">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Username</Table.ColumnHeader>
              <Table.ColumnHeader>Role</Table.ColumnHeader>
              <Table.ColumnHeader>Nickname</Table.ColumnHeader>
              <Table.ColumnHeader>Email</Table.ColumnHeader>
              {admin && <Table.ColumnHeader>Actions</Table.ColumnHeader>}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {state.users.map((member) => (
              <MemberRow
                key={member.id}
                member={member}
                me={user}
                online={online.has(member.id)}
                showActions={admin}
                draft={editing?.id === member.id ? editing : null}
                onDraftChange={(draft) => setEditing({ id: member.id, ...draft })}
                onAction={(action) => onAction(member, action)}
                onSave={() => void saveEdit()}
                onCancel={() => setEditing(null)}
                saving={saving}
              />
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <AddMemberDialog
        open={adding}
        onClose={() => setAdding(false)}
        describeFailure={describeError}
        onCreate={async (body) => {
          await createMember(api, body);
          setAdding(false);
          reload();
        }}
      />
      <ChangePasswordDialog
        open={passwordFor !== null}
        own={passwordFor?.id === user.id}
        username={passwordFor?.username ?? ''}
        onClose={() => setPasswordFor(null)}
        describeFailure={describeError}
        onSubmit={async ({ current, next }) => {
          if (!passwordFor) return;
          if (passwordFor.id === user.id) await changeOwnPassword(api, { old_password: current, new_password: next });
          else await updateMember(api, passwordFor.id, { password: next });
          setPasswordFor(null);
          setNotice({ status: 'success', title: MESSAGES.passwordUpdated });
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={MESSAGES.confirmDeleteUser}
        description={deleting?.username}
        confirmLabel="Delete"
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Box>
  );
}
