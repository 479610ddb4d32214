/** The identity area's errors. */
import { conflict } from '../../platform/errors/index.js';

export const USER = 'User';
export const API_TOKEN = 'API token';
export const SSO_PROVIDER = 'SSO provider';

export const userNameTaken = (username: string) => conflict(`A user named "${username}" already exists`);
export const lastAdministrator = () =>
  conflict('This is the last active administrator; make another user an administrator first');
export const cannotDeleteYourself = () => conflict('You cannot delete your own account');
export const passwordIsExternal = () =>
  conflict('This account signs in through an external provider; change the password there');
export const providerNameTaken = (name: string) => conflict(`A provider named "${name}" already exists`);
