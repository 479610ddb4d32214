import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The signed-in user (GET /me), shared by every screen: administrators see the forms only they may use. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/v1/me')) });
}
