// Navigation for code that is not a component (the query cache's error handler).
import type { NavigateFunction, NavigateOptions } from 'react-router';

let navigator: NavigateFunction | null = null;

export function setNavigator(navigate: NavigateFunction): void {
  navigator = navigate;
}

export function navigateTo(to: string, options?: NavigateOptions): void {
  if (navigator) void navigator(to, options);
  else window.location.assign(to);
}
