import { useQuery } from '@tanstack/react-query';
import { getRuntime } from './sextant-runtime.ts';
import { useSettings } from '../stores/settings.ts';

/** Descriptions of the available captures, loaded from a tools worker. */
export function useCaptures() {
  return useQuery({ queryKey: ['captures'], queryFn: () => getRuntime().captures(), staleTime: Infinity });
}

/** The installed manifests: built-in and saved (they change with the test-tools setting and with saves). */
export function useManifests() {
  const { testTools } = useSettings();
  return useQuery({
    queryKey: ['manifests', testTools],
    queryFn: async () => {
      await getRuntime().loadSavedManifests();
      return getRuntime().manifests();
    },
    staleTime: Infinity,
  });
}
