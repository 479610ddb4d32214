/** The alerting area's errors (notification channels, alert rules, notification settings). */
import { conflict } from '../../platform/errors/index.js';

export const NOTIFICATION_CONFIG = 'Notification config';
export const ALERT_RULE = 'Alert rule';

export const channelNameTaken = (name: string) => conflict(`A notification config named "${name}" already exists here`);
export const ruleNameTaken = (name: string) => conflict(`An alert rule named "${name}" already exists in this project`);
