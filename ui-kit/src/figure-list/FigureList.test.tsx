import { type CodeRunFigure, figuresOmittedText } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { screen, within } from '@testing-library/react';
import { FigureList } from './FigureList.js';

const figure = (data: string): CodeRunFigure => ({ mime: 'image/png', data, width: 640, height: 480 });

test('each figure in order with its PNG download, and how many were left out', () => {
  renderInShell(<FigureList figures={[figure('AAA'), figure('BBB')]} omitted={3} testId="run-figures" />);
  const group = screen.getByRole('group', { name: 'Figures' });
  expect(group).toHaveAttribute('data-testid', 'run-figures');
  const images = within(group).getAllByRole('img');
  expect(images.map((i) => i.getAttribute('alt'))).toEqual(['Figure 1', 'Figure 2']);
  expect(images[1]).toHaveAttribute('src', 'data:image/png;base64,BBB');
  const second = within(group).getByRole('link', { name: 'Download figure 2 (PNG)' });
  expect(second).toHaveAttribute('download', 'figure-2.png');
  expect(second).toHaveAttribute('href', 'data:image/png;base64,BBB');
  expect(group).toHaveTextContent(figuresOmittedText(3));
});

test('no figures and none left out: nothing at all', () => {
  const { container } = renderInShell(<FigureList figures={[]} />);
  expect(screen.queryByRole('group', { name: 'Figures' })).not.toBeInTheDocument();
  expect(container).toBeEmptyDOMElement();
});
