import type { ReactNode } from 'react';

// A person's photo, or the first letter of their name when they have none. Decorative
// (empty alt) unless `alt` is given: the name is usually written right next to it.
export function Avatar({
  name,
  photoURL,
  size = 'large',
  alt = '',
}: {
  name: string;
  photoURL: string | null;
  size?: 'large' | 'small';
  alt?: string;
}) {
  const className = size === 'small' ? 'avatar avatar-small' : 'avatar';
  const pixels = size === 'small' ? 48 : 128;
  if (photoURL)
    return <img className={className} src={photoURL} alt={alt} width={pixels} height={pixels} loading="lazy" />;
  return (
    <span className={`${className} avatar-placeholder`} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

/** A person's avatar beside their linked name, with whatever line of facts the page adds. */
export function PersonHeading({
  user,
  children,
}: {
  user: { displayName: string; photoURL: string | null; slug: string };
  children?: ReactNode;
}) {
  return (
    <div className="person">
      <Avatar name={user.displayName} photoURL={user.photoURL} size="small" />
      <div className="person-text">
        <h3>
          <a href={`/u/${encodeURIComponent(user.slug)}`}>{user.displayName}</a>
        </h3>
        {children}
      </div>
    </div>
  );
}
