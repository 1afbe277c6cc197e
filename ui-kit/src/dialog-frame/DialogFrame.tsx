import { Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface DialogFrameProps {
  open: boolean;
  /** Escape and a click outside (and whatever the footer's Cancel does). */
  onClose(): void;
  title: ReactNode;
  /** The buttons. */
  footer: ReactNode;
  /** The body; none when empty. */
  children?: ReactNode;
  /** `alertdialog` for a question that interrupts (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** Passed to Dialog.Content: `as: 'form'` with `onSubmit`, a data-testid. */
  contentProps?: Dialog.ContentProps & { 'data-testid'?: string };
  /** Passed to Dialog.Body (a height limit, for instance). */
  bodyProps?: Dialog.BodyProps;
  size?: Dialog.RootProps['size'];
  /** `inside`: a long body scrolls within the dialog. */
  scrollBehavior?: Dialog.RootProps['scrollBehavior'];
}

/**
 * The frame of the kit's dialogs: centred, mounted only while open, over a backdrop, in a portal
 * (a remote's box must not clip it).
 */
export function DialogFrame(props: DialogFrameProps) {
  const { open, onClose, title, footer, children, role = 'dialog', contentProps, bodyProps, size, scrollBehavior } = props;
  const content = (
    <Dialog.Content {...contentProps}>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      {children ? <Dialog.Body {...bodyProps}>{children}</Dialog.Body> : null}
      <Dialog.Footer>{footer}</Dialog.Footer>
    </Dialog.Content>
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => !e.open && onClose()}
      role={role}
      placement="center"
      {...(size ? { size } : {})}
      {...(scrollBehavior ? { scrollBehavior } : {})}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>{content}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
