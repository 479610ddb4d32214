import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A card: a region named by its heading. With `focus`, the heading takes the focus (a form that
 * changed on request: opened on another item, or emptied after a save).
 */
export function Card({
  id,
  title,
  focus,
  children,
}: {
  id: string;
  title: ReactNode;
  focus?: boolean;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} ref={heading} tabIndex={focus === undefined ? undefined : -1}>
        {title}
      </h2>
      {children}
    </section>
  );
}
