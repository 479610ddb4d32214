/**
 * Toasts: a short note for every completed action and every failed one (with the request id to
 * quote). Mutations say what they did in `meta.success`; every failed mutation is reported unless it
 * is `meta.quiet` (the sign-in form answers in place). Announced politely to screen readers.
 */
import { MutationCache } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { ApiError } from '../api/client';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { success?: string; quiet?: boolean };
  }
}

interface Toast {
  id: number;
  kind: 'success' | 'error';
  text: string;
  requestId?: string;
}

let next = 1;
let shown: Toast[] = [];
const listeners = new Set<(toasts: Toast[]) => void>();

function publish(toasts: Toast[]) {
  shown = toasts;
  for (const listener of listeners) listener(shown);
}

export function dismiss(id: number) {
  publish(shown.filter((t) => t.id !== id));
}

export function toast(kind: Toast['kind'], text: string, requestId?: string) {
  const id = next++;
  // The last few only: a burst of failures must not cover the screen.
  publish([...shown.slice(-3), { id, kind, text, ...(requestId ? { requestId } : {}) }]);
  setTimeout(() => dismiss(id), kind === 'error' ? 10_000 : 5_000);
}

/** Reports every mutation of the app's query client. */
export const toastingMutations = () =>
  new MutationCache({
    onSuccess: (_data, _variables, _context, mutation) => {
      if (mutation.meta?.success) toast('success', mutation.meta.success);
    },
    onError: (error, _variables, _context, mutation) => {
      if (mutation.meta?.quiet) return;
      if (error instanceof ApiError) toast('error', error.envelope.detail, error.envelope.request_id);
      else toast('error', error.message || String(error));
    },
  });

export function Toasts() {
  const [toasts, setToasts] = useState(shown);
  useEffect(() => {
    listeners.add(setToasts);
    return () => void listeners.delete(setToasts);
  }, []);
  return (
    <section className="toasts" aria-label="Notifications">
      <div aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.kind}`}>
            <span>
              {t.kind === 'error' ? 'Failed: ' : ''}
              {t.text}
              {t.requestId ? (
                <>
                  {' '}
                  <span className="muted">(request id {t.requestId})</span>
                </>
              ) : null}
            </span>
            <Button className="secondary" aria-label="Dismiss" onPress={() => dismiss(t.id)}>
              ×
            </Button>
          </div>
        ))}
      </div>
    </section>
  );
}
