// "Close account" on the dashboard (issue 33): the whole family's account, every athlete on it.
// The server erases everything at once; the page then leaves as a sign-out would (the session is
// gone with the account).
import { CLOSE_ACCOUNT } from '../../../common/dashboard-messages';
import { api, unwrap } from '../../lib/api';
import { navigateTo } from '../../lib/navigation';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { PasswordEraseDialog } from '../../ui/password-erase-dialog';
import { endSession } from '../session/session';
import { leaveSignedInScreens } from '../session/use-sign-out';

export function CloseAccount() {
  const close = async (password: string) => {
    await unwrap(api.account.close.$post({ json: { password, understood: true } }));
    // Gone as after a sign-out: the signed-in screens stop and step aside, then home.
    await leaveSignedInScreens();
    navigateTo('/');
    endSession();
    notify.success(CLOSE_ACCOUNT.done, 6000);
  };
  return (
    <div className="mt-10 border-t border-neutral-800 pt-6 text-center">
      <PasswordEraseDialog
        texts={CLOSE_ACCOUNT}
        onErase={close}
        trigger={
          <Button variant="ghost" size="sm" className="text-neutral-400">
            {CLOSE_ACCOUNT.link}
          </Button>
        }
      />
    </div>
  );
}
