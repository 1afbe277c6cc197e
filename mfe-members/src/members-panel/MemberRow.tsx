import { Button, HStack, IconButton, Input, Menu, Portal, Table, Text } from '@chakra-ui/react';
import type { User } from '@tessera/contracts';
import { OnlineDot } from '../presence/OnlineDot.js';

export type RowAction = 'edit' | 'password' | 'promote' | 'delete';

export interface MemberRowProps {
  member: User;
  isMe: boolean;
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
export function MemberRow({ member, isMe, online, showActions, draft, onDraftChange, onAction, onSave, onCancel, saving }: MemberRowProps) {
  const host = member.role === 'host';
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
            <Menu.Root onSelect={({ value }) => onAction(value as RowAction)}>
              <Menu.Trigger asChild>
                <IconButton size="xs" variant="ghost" aria-label={`Actions for ${member.username}`}>
                  ⋯
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    <Menu.Item value="edit">Edit Info</Menu.Item>
                    <Menu.Item value="password">Change Password</Menu.Item>
                    {/* Promote is offered to everyone but host; Delete to non-host users other than oneself (spec 01 §4). */}
                    {!host && <Menu.Item value="promote">Promote</Menu.Item>}
                    {!host && !isMe && <Menu.Item value="delete">Delete</Menu.Item>}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
          )}
        </Table.Cell>
      )}
    </Table.Row>
  );
}
