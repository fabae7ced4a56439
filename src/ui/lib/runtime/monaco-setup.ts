// Monaco, bundled with the app: no CDN, so the editor works with no network at all.
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { loader } from '@monaco-editor/react';
import { toolManifestSchema } from '../../../core/index.ts';

/** The model URI the manifest editor uses; the ToolManifest schema is bound to it. */
export const MANIFEST_MODEL_URI = 'inmemory://sextant/manifest.json';

self.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};
// Without this the React wrapper fetches Monaco from a CDN.
loader.config({ monaco });

monaco.json.jsonDefaults.setDiagnosticsOptions({
  validate: true,
  enableSchemaRequest: false,
  schemaValidation: 'error',
  schemas: [{ uri: 'https://sextant.local/schemas/tool-manifest.json', fileMatch: [MANIFEST_MODEL_URI], schema: toolManifestSchema }],
});

export { monaco };
