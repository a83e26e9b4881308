// "Close account" on the dashboard (issue 33): what goes, the tick saying it cannot be undone,
// and the password again. The server erases everything at once; the page then leaves as a
// sign-out would (the session is gone with the account).
import { useState, type FormEvent } from 'react';
import { CLOSE_ACCOUNT } from '../../../common/dashboard-messages';
import { api, unwrap } from '../../lib/api';
import { navigateTo } from '../../lib/navigation';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { endSession } from '../session/session';
import { leaveSignedInScreens } from '../session/use-sign-out';

export function CloseAccount() {
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
      await unwrap(api.account.close.$post({ json: { password, understood: true } }));
    } catch (e) {
      setError((e as Error).message || CLOSE_ACCOUNT.failed);
      setBusy(false);
      return;
    }
    // Gone as after a sign-out: the signed-in screens stop and step aside, then home.
    await leaveSignedInScreens();
    navigateTo('/');
    endSession();
    notify.success(CLOSE_ACCOUNT.done, 6000);
  };

  return (
    <div className="mt-10 border-t border-neutral-800 pt-6 text-center">
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
        <DialogTrigger asChild>
          <Button variant="ghost" size="sm" className="text-neutral-400">
            {CLOSE_ACCOUNT.link}
          </Button>
        </DialogTrigger>
        <DialogContent title={CLOSE_ACCOUNT.title} description={CLOSE_ACCOUNT.body}>
          <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
            <label className="flex items-start gap-3 text-sm text-neutral-200">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 accent-red-600"
                checked={understood}
                onChange={(e) => setUnderstood(e.target.checked)}
              />
              {CLOSE_ACCOUNT.understand}
            </label>
            <Field label={CLOSE_ACCOUNT.passwordLabel} error={error ?? undefined}>
              <Input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
            <DialogFooter className="flex-col-reverse sm:flex-row">
              <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={() => setOpen(false)} disabled={busy}>
                {CLOSE_ACCOUNT.cancel}
              </Button>
              <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
                {busy ? CLOSE_ACCOUNT.busy : CLOSE_ACCOUNT.confirm}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
