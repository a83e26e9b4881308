// The family's own erasures (closing the account, removing one athlete): what goes, the tick
// saying it cannot be undone, and the holder's password again. The caller does the erasing.
import { useState, type FormEvent, type ReactNode } from 'react';
import { CLOSE_ACCOUNT } from '../../common/dashboard-messages';
import { Button } from './button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from './dialog';
import { Field, Input } from './form-controls';

export interface PasswordEraseTexts {
  title: string;
  body: string;
  confirm: string;
  busy: string;
  cancel: string;
  failed: string;
}

export function PasswordEraseDialog({
  trigger,
  texts,
  onErase,
}: {
  trigger: ReactNode;
  texts: PasswordEraseTexts;
  /** Erases with the password; throws with the server's words when refused. */
  onErase(password: string): Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!understood) return setError(CLOSE_ACCOUNT.mustUnderstand);
    if (!password) return setError(CLOSE_ACCOUNT.wrongPassword);
    setBusy(true);
    setError(null);
    try {
      await onErase(password);
    } catch (e) {
      setError((e as Error).message || texts.failed);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setPassword('');
          setUnderstood(false);
          setError(null);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent title={texts.title} description={texts.body}>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <label className="flex items-start gap-3 text-sm text-neutral-200">
            <input type="checkbox" className="mt-0.5 h-4 w-4 accent-red-600" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
            {CLOSE_ACCOUNT.understand}
          </label>
          <Field label={CLOSE_ACCOUNT.passwordLabel} error={error ?? undefined}>
            <Input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <DialogFooter className="flex-col-reverse sm:flex-row">
            <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={() => setOpen(false)} disabled={busy}>
              {texts.cancel}
            </Button>
            <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
              {busy ? texts.busy : texts.confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
