// Class names joined, conditionals dropped. Components never pass a utility that fights one of
// their own (a size or a colour comes from a prop instead), so nothing needs merging: that keeps
// a merge library out of every page's first script.
import { clsx, type ClassValue } from 'clsx';

export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
