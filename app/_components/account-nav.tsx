'use client';
// Marks the current section for screen readers and sighted users alike.
import { usePathname } from 'next/navigation';
import type { AccountSection } from '@/lib/web/account-nav';

export function AccountNavLinks({ sections }: { sections: readonly AccountSection[] }) {
  const path = usePathname();
  return (
    <ul>
      {sections.map((s) => (
        <li key={s.href}>
          <a href={s.href} aria-current={path === s.href ? 'page' : undefined}>
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
