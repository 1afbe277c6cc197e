import { Button, HStack, IconButton, Input, Menu, Portal, Table, Text } from '@chakra-ui/react';
import { type MemberActor, type User, memberRefusal } from '@tessera/contracts';
import { OnlineDot } from '../presence/OnlineDot.js';

export type RowAction = 'edit' | 'password' | 'promote' | 'delete';

export interface MemberRowProps {
  member: User;
  /** The signed-in member: the menu offers only what the server allows them (memberRefusal). */
  me: MemberActor;
  online: boolean;
  /** Admin-like viewers get the Actions column. */
  showActions: boolean;
  /** Inline edit of nickname and email, when this row is being edited. */
  draft: { nickname: string; email: string } | null;
  onDraftChange(draft: { nickname: string; email: string }): void;
  onAction(action: RowAction): void;
  onSave(): void;
  onCancel(): void;
  saving: boolean;
}

/** One member: dot, username (You), role, nickname, email, and the row menu (spec 01 §2, §4). */
const ACTION_LABELS: Record<RowAction, string> = { edit: 'Edit Info', password: 'Change Password', promote: 'Promote', delete: 'Delete' };
const POLICY_KIND = { edit: 'editInfo', password: 'setPassword', promote: 'promote', delete: 'delete' } as const;

/**
 * The row menu's actions the server would carry out (spec 01 §4: Promote hidden for host, Delete
 * for host and oneself; beyond it, nothing it would refuse, such as promoting a superadmin).
 * One's own password is changed with the current one, through its own dialog.
 */
export function offeredActions(me: MemberActor, member: User): RowAction[] {
  return (Object.keys(ACTION_LABELS) as RowAction[]).filter((action) =>
    action === 'password' && member.id === me.id ? true : memberRefusal(me, { kind: POLICY_KIND[action], target: member }) === null,
  );
}

export function MemberRow({ member, me, online, showActions, draft, onDraftChange, onAction, onSave, onCancel, saving }: MemberRowProps) {
  const isMe = member.id === me.id;
  const actions = showActions ? offeredActions(me, member) : [];
  return (
    <Table.Row data-testid={`member-row-${member.username}`}>
      <Table.Cell>
        <HStack gap="2">
          <OnlineDot online={online} />
          <Text as="span">{member.username}</Text>
          {isMe && (
            <Text as="span" color="fg.muted">
              (You)
            </Text>
          )}
        </HStack>
      </Table.Cell>
      <Table.Cell>{member.role}</Table.Cell>
      {draft ? (
        <>
          <Table.Cell>
            <Input size="xs" aria-label="Nickname" value={draft.nickname} onChange={(e) => onDraftChange({ ...draft, nickname: e.target.value })} />
          </Table.Cell>
          <Table.Cell>
            <Input size="xs" type="email" aria-label="Email" value={draft.email} onChange={(e) => onDraftChange({ ...draft, email: e.target.value })} />
          </Table.Cell>
        </>
      ) : (
        <>
          <Table.Cell>{member.nickname ?? ''}</Table.Cell>
          <Table.Cell>{member.email ?? ''}</Table.Cell>
        </>
      )}
      {showActions && (
        <Table.Cell>
          {draft ? (
            <HStack gap="1">
              <Button size="xs" onClick={onSave} loading={saving}>
                Save
              </Button>
              <Button size="xs" variant="outline" onClick={onCancel} disabled={saving}>
                Cancel
              </Button>
            </HStack>
          ) : (
            actions.length > 0 && (
              <Menu.Root onSelect={({ value }) => onAction(value as RowAction)}>
                <Menu.Trigger asChild>
                  <IconButton size="xs" variant="ghost" aria-label={`Actions for ${member.username}`}>
                    ⋯
                  </IconButton>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content>
                      {actions.map((action) => (
                        <Menu.Item key={action} value={action}>
                          {ACTION_LABELS[action]}
                        </Menu.Item>
                      ))}
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            )
          )}
        </Table.Cell>
      )}
    </Table.Row>
  );
}
