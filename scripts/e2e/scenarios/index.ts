import { adminScenarios } from './admin';
import { assetsScenarios } from './assets';
import { billingScenarios } from './billing';
import { iccardScenarios } from './iccard';
import { messagesScenarios } from './messages';
import { monitoringScenarios } from './monitoring';
import { shellScenarios } from './shell';
import type { Scenario } from './support';
import { userTextScenarios } from './user-text';

export type { Scenario, ScenarioContext } from './support';

/** Every browser scenario, in the order they run. Add an area's file here. */
export const scenarios: Scenario[] = [
  ...shellScenarios,
  ...messagesScenarios,
  ...adminScenarios,
  ...monitoringScenarios,
  ...assetsScenarios,
  ...billingScenarios,
  ...iccardScenarios,
  ...userTextScenarios,
];
