/** The platform administration area's errors: projects, environments, members, roles. */
import { conflict } from '../../platform/errors/index.js';

export const PROJECT = 'Project';
export const MEMBER = 'Member';
export const ROLE = 'Role';

export const projectNameTaken = (name: string | undefined) => conflict(`A project named "${name}" already exists`);
export const environmentNameTaken = (name: string) =>
  conflict(`The project already has an environment named "${name}"`);
export const roleNameTaken = (name: string | undefined) => conflict(`A role named "${name}" already exists`);
export const builtInRoleFixed = (name: string, change: 'changed' | 'deleted') =>
  conflict(
    change === 'changed'
      ? `The built-in role "${name}" cannot be changed; create a custom role instead`
      : `The built-in role "${name}" cannot be deleted`,
  );
export const roleInUse = (name: string) => conflict(`The role "${name}" is assigned to members; reassign them first`);
