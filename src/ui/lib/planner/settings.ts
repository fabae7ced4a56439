import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { checkPlannerSettings, type PlannerConfigError } from '../../../core/index.ts';
import { getWorkspace } from '../stores/workspace-session.ts';

/** The workspace layer of the planner settings, kept in the workspace's settings store (and so in its exports: it holds no secret). */
export const PLANNER_SETTINGS_KEY = 'planner.settings';

export type PlannerSettingValues = Partial<Record<string, number | string>>;

function clean(value: unknown): PlannerSettingValues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number | string] => typeof entry[1] === 'number' || typeof entry[1] === 'string'));
}

/** The workspace layer as stored or imported, checked by core's `checkPlannerSettings` key by key. */
export interface CheckedWorkspaceSettings {
  values: PlannerSettingValues;
  /** Stored values core refuses (coded, naming the setting): not applied, and said so. */
  problems: PlannerConfigError[];
}

/** Keeps each stored setting core accepts; every refused one is reported, none applied silently. */
export function checkWorkspaceSettings(stored: unknown): CheckedWorkspaceSettings {
  if (stored === null || stored === undefined) return { values: {}, problems: [] };
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    const checked = checkPlannerSettings(stored, 'workspace');
    return { values: {}, problems: checked.ok ? [] : [checked.error] };
  }
  const values: PlannerSettingValues = {};
  const problems: PlannerConfigError[] = [];
  for (const [key, value] of Object.entries(stored)) {
    const checked = checkPlannerSettings({ [key]: value }, 'workspace');
    if (!checked.ok) problems.push(checked.error);
    else if (typeof value === 'number' || typeof value === 'string') values[key] = value;
  }
  return { values, problems };
}

async function load(): Promise<CheckedWorkspaceSettings> {
  const workspace = await getWorkspace();
  const stored = workspace ? await workspace.getSetting(PLANNER_SETTINGS_KEY) : null;
  return stored?.ok ? checkWorkspaceSettings(stored.value) : { values: {}, problems: [] };
}

/** The workspace layer, a setter that saves it (undefined values are removed), and the stored values core refused. */
export function useWorkspacePlannerSettings(): [PlannerSettingValues, (next: PlannerSettingValues) => Promise<void>, PlannerConfigError[]] {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['planner-settings'], queryFn: load, staleTime: Infinity });
  const save = useCallback(
    async (next: PlannerSettingValues) => {
      const values = clean(next);
      queryClient.setQueryData(['planner-settings'], checkWorkspaceSettings(values));
      const workspace = await getWorkspace();
      await workspace?.saveSetting(PLANNER_SETTINGS_KEY, values as Record<string, number | string>);
    },
    [queryClient],
  );
  return [query.data?.values ?? {}, save, query.data?.problems ?? []];
}
