import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { MANIFEST_MODEL_URI, monaco } from '../../lib/runtime/monaco-setup.ts';

export interface EditorMarker {
  message: string;
  line: number;
  column: number;
}

interface Props {
  value: string;
  onChange(value: string): void;
  /** Schema problems Monaco found as the user typed. */
  onMarkers(markers: EditorMarker[]): void;
  /** A position to reveal (e.g. a lint problem the user clicked). */
  reveal: { line: number; column: number } | null;
}

/** Monaco with the ToolManifest JSON Schema: errors underlined as you type, hovers, completion. */
export function ManifestEditor({ value, onChange, onMarkers, reveal }: Props) {
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);
  useEffect(() => {
    if (!reveal || !editorRef.current) return;
    editorRef.current.revealLineInCenter(reveal.line);
    editorRef.current.setPosition({ lineNumber: reveal.line, column: reveal.column });
    editorRef.current.focus();
  }, [reveal]);
  return (
    <div className="manifest-editor" data-testid="manifest-editor">
      <Editor
        height="560px"
        path={MANIFEST_MODEL_URI}
        defaultLanguage="json"
        value={value}
        onChange={(next) => onChange(next ?? '')}
        onMount={(editor) => {
          editorRef.current = editor;
        }}
        onValidate={(markers) =>
          onMarkers(
            markers
              .filter((marker) => marker.severity >= monaco.MarkerSeverity.Warning)
              .map((marker) => ({ message: marker.message, line: marker.startLineNumber, column: marker.startColumn })),
          )
        }
        options={{ minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, tabSize: 2, automaticLayout: true }}
      />
    </div>
  );
}
