/**
 * Lists come first: a screen shows its items and a "New ..." button; the form to create one has its
 * own address (`/pipelines/new`), so the back button leaves it and a link can open it directly.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { navigate, usePathname } from '../navigation';

/** The address of the create form of the screen at `base`: `<base>/new`. */
export const createPath = (base: string) => `${base}/new`;

/** Whether the screen at `base` shows its create form, and the ways in and out of it. */
export function useCreateRoute(base: string): {
  creating: boolean;
  start: () => void;
  /**
   * Leaves the form after it succeeded: to the list, or to `next` (the item just created), in place
   * of the form's entry (back then skips it). Nothing happens if the user already went elsewhere
   * while the answer was coming.
   */
  leave: (next?: string) => void;
  /** Leaves the form by the way back: a new history entry, like a link. */
  back: () => void;
} {
  const path = usePathname();
  return {
    creating: path === createPath(base),
    start: () => navigate(createPath(base)),
    leave: (next) => {
      if (window.location.pathname === createPath(base)) navigate(next ?? base, { replace: true });
    },
    back: () => navigate(base),
  };
}

/** The bar above a list: the button that opens the create form, and the screen's other actions. */
export function ListActions({
  label,
  onNew,
  isDisabled,
  children,
}: {
  label: string;
  onNew: () => void;
  isDisabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="list-actions">
      <Button onPress={onNew} isDisabled={isDisabled}>
        {label}
      </Button>
      {children}
    </div>
  );
}

/**
 * A page of its own within a screen (the create form, an item's page), with the way back to the list
 * above it. Its heading takes the focus when it opens: the button that opened it is gone.
 */
export function BackToList({ back, onBack, children }: { back: string; onBack: () => void; children: ReactNode }) {
  const page = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const heading = page.current?.querySelector<HTMLElement>('h2');
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading.focus();
  }, []);
  return (
    <div ref={page}>
      <div className="list-actions">
        <Button className="secondary" onPress={onBack}>
          <span aria-hidden="true">←</span> Back to {back}
        </Button>
      </div>
      {children}
    </div>
  );
}

/**
 * A screen whose create form lives at `<base>/new`: there the form (given the way back to the list,
 * for when it is done), else the "New ..." button above the list.
 */
export function WithCreateForm({
  base,
  label,
  back,
  isDisabled,
  actions,
  form,
  children,
}: {
  base: string;
  /** The button's text, which is also the form's title: "New CDC table". */
  label: string;
  /** The list's name, on the way back: "CDC tables". */
  back: string;
  isDisabled?: boolean;
  /** The screen's other actions, beside the button. */
  actions?: ReactNode;
  /** The form, given what to call once it succeeded (with the created item's address, to open it). */
  form: (done: (next?: string) => void) => ReactNode;
  children: ReactNode;
}) {
  const { creating, start, leave, back: goBack } = useCreateRoute(base);
  if (creating)
    return (
      <BackToList back={back} onBack={goBack}>
        {form(leave)}
      </BackToList>
    );
  return (
    <>
      <ListActions label={label} onNew={start} isDisabled={isDisabled}>
        {actions}
      </ListActions>
      {children}
    </>
  );
}
