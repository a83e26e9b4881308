// An admin's enrolment of the second factor: the password, then the authenticator app (QR code,
// or the key typed by hand), then a code from the app to confirm, then the recovery codes, shown
// this once with a download and a copy. Until the code confirms it, the factor is not on and the
// admin pages stay closed (two-factor.ts).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SECOND_FACTOR_SETUP as TEXT } from '../../../common/admin-messages';
import { SECOND_FACTOR } from '../../../common/messages';
import { requestJson } from '../../lib/api-error';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import { refreshSession } from '../session/session';
import { QrCode } from './qr-code';

interface Started {
  totpURI: string;
  backupCodes: string[];
}

/** The key an app asks for when typed by hand, in groups of four. */
const keyOf = (uri: string) => (new URL(uri).searchParams.get('secret') ?? '').replace(/(.{4})(?=.)/g, '$1 ');

export function Enrolment() {
  const [started, setStarted] = useState<Started | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  if (started && confirmed) return <RecoveryCodes codes={started.backupCodes} />;
  if (started) return <ConfirmApp started={started} onConfirmed={() => setConfirmed(true)} />;
  return <PasswordStep onStarted={setStarted} />;
}

function PasswordStep({ onStarted }: { onStarted: (s: Started) => void }) {
  const [error, setError] = useState<string | undefined>();
  const start = useAction((password: string) => requestJson<Started>('/api/auth/two-factor/enable', { method: 'POST', json: { password } }), {
    onSuccess: (s) => onStarted(s),
    onError: (e) => {
      setError(e.message);
      notify.error({ title: TEXT.failed.title, description: e.message });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    if (!password) return setError(SECOND_FACTOR.wrongPassword);
    setError(undefined);
    start.run(password);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={TEXT.title} className="flex flex-col gap-4">
      <p className="text-sm text-neutral-300">{TEXT.passwordStep}</p>
      <Field label={TEXT.passwordLabel} error={error}>
        <Input name="password" type="password" autoComplete="current-password" autoFocus />
      </Field>
      <Button type="submit" size="lg" disabled={start.isPending}>
        {start.isPending ? TEXT.starting : TEXT.start}
      </Button>
    </form>
  );
}

function ConfirmApp({ started, onConfirmed }: { started: Started; onConfirmed: () => void }) {
  const [error, setError] = useState<string | undefined>();
  const confirm = useAction((code: string) => requestJson('/api/auth/two-factor/verify-totp', { method: 'POST', json: { code } }), {
    onSuccess: async () => {
      await refreshSession();
      notify.success(TEXT.enrolled);
      onConfirmed();
    },
    onError: (e) => {
      setError(e.message);
      notify.error({ title: TEXT.failed.title, description: e.message });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    if (!/^\d{6}$/.test(code)) return setError(SECOND_FACTOR.codeFormat);
    setError(undefined);
    confirm.run(code);
  };
  return (
    <div className="flex flex-col gap-6">
      <ol className="flex flex-col gap-5 text-sm text-neutral-300">
        <li className="flex flex-col gap-3">
          <p>
            <span className="font-semibold text-white">1.</span> {TEXT.scanStep}
          </p>
          <div className="self-center rounded-lg bg-white p-2">
            <QrCode text={started.totpURI} label={TEXT.qrLabel} />
          </div>
          <p>{TEXT.manualStep}</p>
          <code data-testid="totp-key" className="select-all break-words rounded-md bg-neutral-950 px-3 py-2 text-center font-mono text-base tracking-wider text-white">
            {keyOf(started.totpURI)}
          </code>
          <p>
            {TEXT.uriLabel}{' '}
            <a href={started.totpURI} className="break-all font-mono text-xs text-red-400 underline-offset-4 hover:underline" data-testid="totp-uri">
              {started.totpURI}
            </a>
          </p>
        </li>
        <li>
          <form onSubmit={submit} noValidate aria-label={TEXT.confirmStep} className="flex flex-col gap-3">
            <p>
              <span className="font-semibold text-white">2.</span> {TEXT.confirmStep}
            </p>
            <Field label={SECOND_FACTOR.codeLabel} error={error}>
              <Input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                className="text-center font-mono text-2xl tracking-[0.5em]"
              />
            </Field>
            <Button type="submit" size="lg" disabled={confirm.isPending}>
              {confirm.isPending ? TEXT.confirming : TEXT.confirm}
            </Button>
          </form>
        </li>
      </ol>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const navigate = useNavigate();
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = TEXT.fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true));
  };
  return (
    <section aria-labelledby="recovery-title" className="flex flex-col gap-4">
      <h2 id="recovery-title" className="text-xl font-semibold text-white">
        {TEXT.recoveryTitle}
      </h2>
      <p className="text-sm text-neutral-300">{TEXT.recoveryText}</p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-md bg-neutral-950 p-4 font-mono text-base text-white">
        {codes.map((c) => (
          <li key={c} className="select-all text-center">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button type="button" variant="outline" onClick={download}>
          {TEXT.download}
        </Button>
        <Button type="button" variant="outline" onClick={copy}>
          {copied ? TEXT.copied : TEXT.copy}
        </Button>
      </div>
      <Button type="button" size="lg" onClick={() => navigate('/admin', { replace: true })}>
        {TEXT.done}
      </Button>
    </section>
  );
}
