// /reset-password: reached from the e-mailed link (?token=...), or with ?error= when the link
// was already used or expired.
import { Eye, EyeOff } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { TIMING } from '../../common/constants';
import { AUTH_ERRORS, LABELS, PASSWORD_MISMATCH, PASSWORD_UPDATED, RESET_FAILED_TITLE, VERIFY_EMAIL } from '../../common/messages';
import { requestJson } from '../lib/api-error';
import { useAction } from '../lib/use-action';
import { notify } from '../lib/toast';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/form-controls';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

export default function ResetPasswordPage() {
  usePageTitle(PAGE_TITLES['/reset-password']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const linkBroken = !token || Boolean(params.get('error'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [show, setShow] = useState(false);

  const update = useAction(() => requestJson('/api/auth/reset-password', { method: 'POST', json: { newPassword: password, token: token ?? '' } }), {
    onSuccess: () => {
      notify.success(PASSWORD_UPDATED);
      setTimeout(() => navigate('/auth'), TIMING.resetRedirect);
    },
    onError: (error) => notify.error({ title: RESET_FAILED_TITLE, description: error.message }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) return notify.error(PASSWORD_MISMATCH);
    if (password.length < 6) return notify.error({ title: RESET_FAILED_TITLE, description: AUTH_ERRORS.passwordTooShort });
    update.run(undefined);
  };

  return (
    <div className="flex min-h-dvh items-start justify-center px-4 pb-16 pt-28">
      <div className="w-full max-w-md rounded-xl border border-neutral-800 bg-neutral-900/70 p-8 shadow-xl">
        <h1 className="font-display text-4xl uppercase tracking-wide text-white">Reset password</h1>
        {linkBroken ? (
          <div className="mt-4 space-y-6">
            <p role="alert" className="text-neutral-300">{AUTH_ERRORS.invalidResetLink}</p>
            <Button asChild className="w-full">
              <Link to="/auth">{VERIFY_EMAIL.back}</Link>
            </Button>
          </div>
        ) : (
          <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-4">
            <Field label={LABELS.newPassword}>
              <Input type={show ? 'text' : 'password'} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
            <Field label={LABELS.confirmPassword}>
              <Input type={show ? 'text' : 'password'} autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            </Field>
            <Button type="button" variant="ghost" size="sm" className="self-start" onClick={() => setShow((v) => !v)} aria-pressed={show}>
              {show ? <EyeOff className="h-4 w-4" /> : <Eye className="h-4 w-4" />}
              {show ? LABELS.hidePassword : LABELS.showPassword}
            </Button>
            <Button type="submit" size="lg" disabled={update.isPending || update.isSuccess}>
              {update.isPending ? 'Updating...' : LABELS.updatePassword}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
