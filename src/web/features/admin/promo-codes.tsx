// Promo codes on the orders page: create one (code and percent; optionally its last day and how
// many paid orders may use it), see how often each was used, and turn codes off and on. The
// server checks everything again (unique in any case, a whole percent from 1 to 100, a day from
// today on, a whole number of uses).
import { useState, type FormEvent } from 'react';
import { ADMIN } from '../../../common/admin-messages';
import { ApiRequestError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Field, Input } from '../../ui/form-controls';
import { Spinner } from '../../ui/spinner';
import { useCreatePromoCode, usePromoCodes, useSetPromoActive } from './api';

const T = ADMIN.promoCodes;

export function PromoCodes() {
  const codes = usePromoCodes();
  const create = useCreatePromoCode();
  const setActive = useSetPromoActive();
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [error, setError] = useState<{ field: 'code' | 'percent' | 'expiresOn' | 'maxUses'; message: string } | null>(null);
  const today = new Date().toISOString().slice(0, 10);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const created = await create.mutateAsync({ code: code.trim(), discountPercent: Number(percent), expiresOn, maxUses });
      notify.success(T.created(created.code, created.discountPercent));
      setCode('');
      setPercent('');
      setExpiresOn('');
      setMaxUses('');
    } catch (err) {
      const message = err instanceof ApiRequestError ? err.message : T.failedTitle;
      const field = message === T.invalidPercent ? 'percent' : message === T.invalidExpiry ? 'expiresOn' : message === T.invalidUses ? 'maxUses' : 'code';
      setError({ field, message });
    }
  };

  return (
    <section aria-labelledby="promo-title" className="mb-10 rounded-xl border border-neutral-800 bg-neutral-900/70 p-5">
      <h2 id="promo-title" className="font-display text-2xl uppercase tracking-wide text-white">
        {T.title}
      </h2>
      <p className="mt-1 text-sm text-neutral-300">{T.description}</p>
      <form onSubmit={submit} className="mt-4 flex flex-wrap items-start gap-3" noValidate>
        <Field label={T.code} error={error?.field === 'code' ? error.message : undefined} className="min-w-48 flex-1">
          <Input value={code} onChange={(e) => setCode(e.target.value)} maxLength={64} autoCapitalize="characters" autoComplete="off" spellCheck={false} required />
        </Field>
        <Field label={T.percent} error={error?.field === 'percent' ? error.message : undefined} className="w-36">
          <Input value={percent} onChange={(e) => setPercent(e.target.value)} inputMode="numeric" type="number" min={1} max={100} step={1} required />
        </Field>
        <Field label={T.expiresOn} error={error?.field === 'expiresOn' ? error.message : undefined} className="w-44">
          <Input value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} type="date" min={today} />
        </Field>
        <Field label={T.maxUses} error={error?.field === 'maxUses' ? error.message : undefined} className="w-36">
          <Input value={maxUses} onChange={(e) => setMaxUses(e.target.value)} inputMode="numeric" type="number" min={1} step={1} />
        </Field>
        <Button type="submit" className="mt-7" disabled={create.isPending || !code.trim() || !percent}>
          {T.create}
        </Button>
      </form>
      {codes.isPending ? (
        <div className="mt-4">
          <Spinner />
        </div>
      ) : codes.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-400">
          {T.loadFailed.description}
        </p>
      ) : !codes.data.length ? (
        <p className="mt-4 text-sm text-neutral-300">{T.empty}</p>
      ) : (
        <ul className="mt-5 divide-y divide-neutral-800 rounded-lg border border-neutral-800" data-testid="promo-codes">
          {codes.data.map((p) => (
            <li key={p.code} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="flex flex-wrap items-center gap-3">
                <span className="font-mono font-semibold text-white">{p.code}</span>
                <span className="text-sm text-neutral-300">{p.discountPercent}% off</span>
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold uppercase', p.active ? 'bg-green-950 text-green-300' : 'bg-neutral-800 text-neutral-300')}>
                  {p.active ? T.active : T.inactive}
                </span>
                <span className="text-sm text-neutral-300" data-testid="promo-usage">
                  {T.usage(p.uses, p.maxUses)}
                  {p.expiresOn && <> · {T.until(p.expiresOn)}</>}
                </span>
                {p.expiresOn !== null && p.expiresOn < today && <span className="rounded-full bg-neutral-800 px-2 py-0.5 text-xs font-semibold uppercase text-neutral-300">{T.expired}</span>}
                {p.maxUses !== null && p.uses >= p.maxUses && <span className="rounded-full bg-neutral-800 px-2 py-0.5 text-xs font-semibold uppercase text-neutral-300">{T.usedUp}</span>}
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={setActive.isPending}
                onClick={() =>
                  setActive.mutate(
                    { code: p.code, active: !p.active },
                    { onError: (err) => notify.error({ title: T.failedTitle, description: err.message }) },
                  )
                }
                aria-label={`${p.active ? T.deactivate : T.activate} ${p.code}`}
              >
                {p.active ? T.deactivate : T.activate}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
