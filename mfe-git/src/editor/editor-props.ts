/** What the editor boundary and the Monaco editor behind it take. */
export interface EditorProps {
  /** The file's path: names the model and picks the language. */
  path: string;
  value: string;
  onChange(value: string): void;
  /** Ctrl/Cmd+S inside the editor. */
  onSave?(): void;
}

/** Monaco's language id of a path: only the four languages built in (Python, TypeScript, JSON, Markdown); plain text otherwise. */
export function editorLanguage(path: string): 'python' | 'typescript' | 'json' | 'markdown' | 'plaintext' {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'py') return 'python';
  if (ext === 'ts' || ext === 'tsx') return 'typescript';
  if (ext === 'json') return 'json';
  if (ext === 'md') return 'markdown';
  return 'plaintext';
}
