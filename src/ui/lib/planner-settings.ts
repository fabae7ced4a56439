import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getWorkspace } from './workspace-session.ts';

/** The workspace layer of the planner settings, kept in the workspace's settings store (and so in its exports: it holds no secret). */
export const PLANNER_SETTINGS_KEY = 'planner.settings';

export type PlannerSettingValues = Partial<Record<string, number | string>>;

function clean(value: unknown): PlannerSettingValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number | string] => typeof entry[1] === 'number' || typeof entry[1] === 'string'));
}

async function load(): Promise<PlannerSettingValues> {
  const workspace = await getWorkspace();
  const stored = workspace ? await workspace.getSetting(PLANNER_SETTINGS_KEY) : null;
  return stored?.ok ? clean(stored.value) : {};
}

/** The workspace layer, and a setter that saves it (undefined values are removed). */
export function useWorkspacePlannerSettings(): [PlannerSettingValues, (next: PlannerSettingValues) => Promise<void>] {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['planner-settings'], queryFn: load, staleTime: Infinity });
  const save = useCallback(
    async (next: PlannerSettingValues) => {
      const values = clean(next);
      queryClient.setQueryData(['planner-settings'], values);
      const workspace = await getWorkspace();
      await workspace?.saveSetting(PLANNER_SETTINGS_KEY, values as Record<string, number | string>);
    },
    [queryClient],
  );
  return [query.data ?? {}, save];
}
