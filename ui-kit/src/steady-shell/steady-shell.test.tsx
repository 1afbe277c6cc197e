import { render, screen } from '@testing-library/react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';
import { steadyShell, useShellValue } from './steady-shell.js';

/** The fields of a ShellContext this test reads; the rest are not touched. */
const shellWith = (name: string, version: number, selection: { row: number; col: number } | null) =>
  ({ user: { id: 'u1', username: name, role: 'user' }, sheet: { id: 's1', version, selection } }) as unknown as ShellContext;

let renders = 0;
let clicked: unknown[] = [];
function Panel({ shell }: RemoteProps) {
  renders++;
  return (
    <button type="button" onClick={() => clicked.push([shell.sheet.version, shell.sheet.selection])}>
      {shell.user.username}
    </button>
  );
}
const SteadyPanel = steadyShell(Panel, (shell) => [shell.user]);

beforeEach(() => {
  renders = 0;
  clicked = [];
});

test('a new context that changes nothing it shows does not render it again; its handlers read the newest context', () => {
  const first = shellWith('alice', 1, null);
  const { rerender } = render(<SteadyPanel shell={first} />);
  expect(renders).toBe(1);
  // An edit acknowledged, the selection moved: new contexts, the same user object.
  const next = { ...first, sheet: { id: 's1', version: 2, selection: { row: 3, col: 1 } } } as ShellContext;
  rerender(<SteadyPanel shell={next} />);
  rerender(<SteadyPanel shell={{ ...next, sheet: { ...next.sheet, version: 3 } } as ShellContext} />);
  expect(renders).toBe(1);
  screen.getByRole('button', { name: 'alice' }).click();
  expect(clicked).toEqual([[3, { row: 3, col: 1 }]]);
});

test('a change of what it shows renders it again with the new value', () => {
  const { rerender } = render(<SteadyPanel shell={shellWith('alice', 1, null)} />);
  rerender(<SteadyPanel shell={shellWith('bob', 1, null)} />);
  expect(renders).toBe(2);
  expect(screen.getByRole('button', { name: 'bob' })).toBeInTheDocument();
});

test('its other props still render it when they change, and the shell it gets lists the context’s fields', () => {
  const Labelled = steadyShell(({ shell, label }: RemoteProps & { label: string }) => {
    renders++;
    return <output>{`${label} ${Object.keys(shell).sort().join(',')} ${'sheet' in shell}`}</output>;
  }, () => []);
  const shell = shellWith('alice', 1, null);
  const { rerender } = render(<Labelled shell={shell} label="one" />);
  rerender(<Labelled shell={shell} label="one" />);
  expect(renders).toBe(1);
  rerender(<Labelled shell={shell} label="two" />);
  expect(renders).toBe(2);
  expect(screen.getByRole('status')).toHaveTextContent('two sheet,user true');
});

test('a part that shows a field with useShellValue follows it alone: the component around it does not render again', () => {
  let cellRenders = 0;
  function SelectedCell() {
    cellRenders++;
    const cell = useShellValue((shell) => (shell.sheet.selection ? `R${shell.sheet.selection.row}C${shell.sheet.selection.col}` : 'none'));
    return <output>{cell}</output>;
  }
  const Panel = steadyShell(({ shell }: RemoteProps) => {
    renders++;
    return (
      <p>
        {shell.user.username} <SelectedCell />
      </p>
    );
  }, (shell) => [shell.user]);
  const first = shellWith('alice', 1, null);
  const { rerender } = render(<Panel shell={first} />);
  expect(screen.getByRole('status')).toHaveTextContent('none');
  // The same user: the selection moves, then a new version with the same selection.
  const moved = (version: number) => ({ ...first, sheet: { id: 's1', version, selection: { row: 3, col: 1 } } }) as ShellContext;
  rerender(<Panel shell={moved(1)} />);
  expect(screen.getByRole('status')).toHaveTextContent('R3C1');
  rerender(<Panel shell={moved(2)} />);
  expect(screen.getByRole('status')).toHaveTextContent('R3C1');
  expect(renders).toBe(1);
  expect(cellRenders).toBe(2);
});

test('useShellValue outside a steadyShell component says so', () => {
  const Lone = () => <span>{useShellValue((shell) => shell.sheet.id)}</span>;
  jest.spyOn(console, 'error').mockImplementation(() => {});
  expect(() => render(<Lone />)).toThrow('useShellValue is used inside a component wrapped in steadyShell');
});
