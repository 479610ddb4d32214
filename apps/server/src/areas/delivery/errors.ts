/** The Delivery area's errors. */
import { conflict } from '../../platform/errors/index.js';

export const EXPORT = 'Export';
export const EXPORT_RUN = 'Export run';

export const exportNameTaken = (name: string) => conflict(`The project already has an export named "${name}"`);
export const exportBusy = () => conflict('The export already has a queued or running execution');
