// The second step of an admin's sign-in: the 6-digit code from the authenticator app, or one of
// the recovery codes. The server made the session only after the right code (two-factor.ts).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SECOND_FACTOR, WELCOME_BACK } from '../../../common/messages';
import { requestJson } from '../../lib/api-error';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import { refreshSession } from '../session/session';

type Mode = 'app' | 'recovery';

export function CodePrompt() {
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('app');
  const [error, setError] = useState<string | undefined>();

  const verify = useAction(
    ({ mode: m, code }: { mode: Mode; code: string }) =>
      requestJson(m === 'app' ? '/api/auth/two-factor/verify-totp' : '/api/auth/two-factor/verify-backup-code', { method: 'POST', json: { code } }),
    {
      onSuccess: async () => {
        const me = await refreshSession();
        notify.success(WELCOME_BACK);
        navigate(me.user?.isAdmin ? '/admin' : '/dashboard', { replace: true });
      },
      onError: (e) => {
        setError(e.message);
        notify.error({ title: SECOND_FACTOR.failed.title, description: e.message });
        if (e.message === SECOND_FACTOR.expired) navigate('/auth', { replace: true });
      },
    },
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    const valid = mode === 'app' ? /^\d{6}$/.test(code) : /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(code);
    if (!valid) return setError(mode === 'app' ? SECOND_FACTOR.codeFormat : SECOND_FACTOR.recoveryFormat);
    setError(undefined);
    verify.run({ mode, code });
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setError(undefined);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={mode === 'app' ? SECOND_FACTOR.promptTitle : SECOND_FACTOR.recoveryTitle} className="flex flex-col gap-4">
      <div>
        <h2 className="text-xl font-semibold text-white">{mode === 'app' ? SECOND_FACTOR.promptTitle : SECOND_FACTOR.recoveryTitle}</h2>
        <p className="mt-1 text-sm text-neutral-300">{mode === 'app' ? SECOND_FACTOR.promptText : SECOND_FACTOR.recoveryText}</p>
      </div>
      {mode === 'app' ? (
        <Field key="app" label={SECOND_FACTOR.codeLabel} error={error}>
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            autoFocus
            className="text-center font-mono text-2xl tracking-[0.5em]"
          />
        </Field>
      ) : (
        <Field key="recovery" label={SECOND_FACTOR.recoveryLabel} error={error}>
          <Input name="code" autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={11} autoFocus className="font-mono text-lg" />
        </Field>
      )}
      <Button type="submit" size="lg" disabled={verify.isPending}>
        {verify.isPending ? SECOND_FACTOR.verifying : SECOND_FACTOR.verify}
      </Button>
      <div className="flex flex-wrap justify-between gap-2">
        <Button type="button" variant="link" size="inline" onClick={() => switchTo(mode === 'app' ? 'recovery' : 'app')}>
          {mode === 'app' ? SECOND_FACTOR.useRecovery : SECOND_FACTOR.useApp}
        </Button>
        <Button type="button" variant="link" size="inline" onClick={() => navigate('/auth')}>
          {SECOND_FACTOR.backToSignIn}
        </Button>
      </div>
    </form>
  );
}
