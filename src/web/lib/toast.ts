// Toasts as the spec has them: a title and a description, one visible at a time, 5 s by default.
import { toast } from 'sonner';
import type { ToastText } from '../../common/messages';

export const notify = {
  success(text: ToastText, duration?: number) {
    toast.success(text.title, { description: text.description, duration });
  },
  info(text: ToastText, duration?: number) {
    toast(text.title, { description: text.description, duration });
  },
  /** The spec's "destructive" toast. */
  error(text: ToastText, duration?: number) {
    toast.error(text.title, { description: text.description, duration });
  },
};
