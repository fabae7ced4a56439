export type { PlannerDemoOptions } from './planner-demo.ts';
export { PLANNER_DEMO_QUESTION, PLANNER_DEMO_BLE_TOOL, PLANNER_DEMO_MODEL, plannerDemoScript } from './planner-demo.ts';
