// A person's photo, or the first letter of their name when they have none. Decorative
// (empty alt) unless `alt` is given: the name is usually written right next to it.
export function Avatar({ name, photoURL, size = 'large', alt = '' }: { name: string; photoURL: string | null; size?: 'large' | 'small'; alt?: string }) {
  const className = size === 'small' ? 'avatar avatar-small' : 'avatar';
  const pixels = size === 'small' ? 48 : 128;
  if (photoURL) return <img className={className} src={photoURL} alt={alt} width={pixels} height={pixels} loading="lazy" />;
  return (
    <span className={`${className} avatar-placeholder`} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
