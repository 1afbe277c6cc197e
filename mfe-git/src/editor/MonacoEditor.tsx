import * as monaco from 'monaco-editor/editor/editor.api';
import { useEffect, useRef } from 'react';
import { editorLanguage, type EditorProps } from './editor-props.js';
import { installMonacoEnvironment } from './monaco-environment.js';

installMonacoEnvironment();

/**
 * Monaco, with the languages the build includes (monaco-editor-webpack-plugin:
 * python, typescript, json, markdown). Loaded only through CodeEditorBoundary.
 * One model per mount, named by the path so the language services see a file name.
 */
export default function MonacoEditor({ path, value, onChange, onSave }: EditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const callbacks = useRef({ onChange, onSave });
  callbacks.current = { onChange, onSave };

  useEffect(() => {
    const uri = monaco.Uri.from({ scheme: 'inmemory', path: `/${Date.now().toString(36)}/${path}` });
    const model = monaco.editor.createModel(value, editorLanguage(path), uri);
    const instance = monaco.editor.create(host.current!, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      tabSize: path.endsWith('.py') ? 4 : 2,
    });
    editor.current = instance;
    const sub = instance.onDidChangeModelContent(() => callbacks.current.onChange(instance.getValue()));
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => callbacks.current.onSave?.());
    return () => {
      sub.dispose();
      instance.dispose();
      model.dispose();
      editor.current = null;
    };
    // A new path is a new model; value changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);

  // A value from outside (Reset, a reload) replaces the text; the editor's own edits already match it.
  useEffect(() => {
    const instance = editor.current;
    if (instance && instance.getValue() !== value) instance.setValue(value);
  }, [value]);

  return <div ref={host} data-testid="monaco-editor" style={{ height: '100%', minHeight: 320, width: '100%' }} />;
}
