// A link that skips to a part of the page, for keyboard and screen-reader users: it moves focus
// there (WCAG 2.4.1), not only the scroll position, so that the next Tab goes on from the target.
import type { ReactNode } from 'react';

export function SkipLink({ target, children }: { target: string; children: ReactNode }) {
  return (
    <a
      className="skip"
      href={`#${target}`}
      onClick={(e) => {
        const el = document.getElementById(target);
        if (!el) return;
        e.preventDefault();
        // A target that is not focusable by itself takes focus from script only.
        if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
        el.focus();
        el.scrollIntoView({ block: 'start' });
      }}
    >
      {children}
    </a>
  );
}
