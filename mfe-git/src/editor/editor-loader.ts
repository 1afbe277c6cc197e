import { createContext, type ComponentType } from 'react';
import type { EditorProps } from './editor-props.js';

export type EditorLoader = () => Promise<{ default: ComponentType<EditorProps> }>;

/**
 * Monaco is loaded by this dynamic import only, when an editor first shows
 * (the git tab or the Code tab): neither the shell's nor this remote's entry
 * chunk holds it. The context lets a host (or a test in jsdom, where Monaco
 * cannot run) say how the editor is loaded.
 */
export const loadMonacoEditor: EditorLoader = () => import('./MonacoEditor.js');

export const EditorLoaderContext = createContext<EditorLoader>(loadMonacoEditor);
