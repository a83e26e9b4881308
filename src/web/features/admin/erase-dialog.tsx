// Erasing a family's account from the users list (issue 33): what goes, and the account's address
// typed to confirm. The server checks the address, refuses an admin's account and audits it.
import { useState, type FormEvent } from 'react';
import { ADMIN } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { Field, Input } from '../../ui/form-controls';
import { useEraseAccount } from './api';

export function EraseAccountDialog({
  user,
  onClose,
}: {
  user: { id: string; name: string; email: string; family: { holderId: string; athletes: number } | null } | null;
  onClose(): void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const erase = useEraseAccount();
  const text = ADMIN.users.erase;

  const close = () => {
    setTyped('');
    setError(null);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    if (typed.trim().toLowerCase() !== user.email.toLowerCase()) return setError(text.mismatch);
    erase.mutate(
      { userId: user.id, confirmEmail: typed },
      {
        onSuccess: () => {
          notify.success(text.done);
          close();
        },
        onError: (e) => setError(e.message || text.failed.description),
      },
    );
  };

  return (
    <Dialog open={Boolean(user)} onOpenChange={(open) => !open && close()}>
      {user && (
        <DialogContent title={text.title} description={text.body}>
          <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
            <p className="text-sm text-neutral-200">
              {user.name} · <span className="font-mono">{user.email}</span>
            </p>
            {user.family && (
              <p className="text-sm font-semibold text-amber-300">
                {user.family.holderId === user.id ? text.familyHolder(user.family.athletes) : text.familyAthlete}
              </p>
            )}
            <Field label={text.confirmLabel} error={error ?? undefined}>
              <Input type="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
            </Field>
            <DialogFooter className="flex-col-reverse sm:flex-row">
              <Button type="button" variant="outline" className="w-full sm:w-auto" onClick={close} disabled={erase.isPending}>
                Cancel
              </Button>
              <Button type="submit" className="w-full sm:w-auto" disabled={erase.isPending}>
                {erase.isPending ? text.busy : text.confirm}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
