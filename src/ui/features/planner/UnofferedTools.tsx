import { useEffect, useState } from 'react';
import { unrunnableManifests } from '../../lib/planner/runtime.ts';
import { useManifests } from '../../lib/runtime/queries.ts';

/** Says which installed manifests the planner leaves out of Discover, and why (they cannot run here). */
export function UnofferedTools() {
  const manifests = useManifests();
  const [left, setLeft] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void unrunnableManifests().then((list) => live && setLeft(list.map((manifest) => `${manifest.name} ${manifest.version}`)));
    return () => {
      live = false;
    };
  }, [manifests.data]);
  if (left.length === 0) return null;
  return (
    <p className="muted small" data-testid="planner.unoffered">
      Not offered to the model: {left.join(', ')}. {left.length === 1 ? 'It is a saved manifest' : 'They are saved manifests'} with no endpoint, so any call could only end in EXECUTION_ERROR; bind{' '}
      {left.length === 1 ? 'it' : 'them'} to an endpoint on the Manifests page.
    </p>
  );
}
