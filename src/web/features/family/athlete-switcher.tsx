// The family's athletes at the top of the dashboard (decision 0036): one button per athlete (the
// one shown is pressed), "Add athlete" beside them, and removing the athlete shown while the family
// has another (its last goes only with the account). An admin viewing the site as the family may
// switch but neither add nor remove.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { UserPlus } from 'lucide-react';
import { FAMILY } from '../../../common/family-messages';
import { CLOSE_ACCOUNT } from '../../../common/dashboard-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { PasswordEraseDialog } from '../../ui/password-erase-dialog';
import { AddAthleteDialog } from './add-athlete-dialog';
import { removeAthlete, showAthlete, switchAthlete, useFamily } from './api';
import { forgetPendingAthlete, takePendingAthlete } from './pending-athlete';

/**
 * A family mail's link names its athlete (?athlete=…, family/members.ts addresseeOf): the
 * dashboard moves to that athlete, if it is this family's, and the address bar forgets it.
 */
function useAthleteFromLink(family: ReturnType<typeof useFamily>['data']) {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('athlete');
  useEffect(() => {
    if (!wanted || !family) return;
    if (wanted !== family.activeId && family.athletes.some((a) => a.id === wanted)) {
      void switchAthlete(wanted, window.location.hash).catch(() => {});
      return;
    }
    const next = new URLSearchParams(params);
    next.delete('athlete');
    setParams(next, { replace: true });
  }, [wanted, family, params, setParams]);
}

export function AthleteSwitcher({ familyOnly }: { familyOnly: boolean }) {
  const family = useFamily();
  // A registration that met this family's address left its athlete here: Add athlete opens with it.
  const [pending, setPending] = useState(() => (familyOnly ? null : takePendingAthlete()));
  const [adding, setAdding] = useState(pending !== null);
  const [switching, setSwitching] = useState<string | null>(null);
  useAthleteFromLink(family.data);
  if (!family.data) return null;
  const { athletes, activeId } = family.data;
  const active = athletes.find((a) => a.id === activeId);

  const choose = async (id: string) => {
    if (id === activeId) return;
    setSwitching(id);
    try {
      await switchAthlete(id);
    } catch (error) {
      setSwitching(null);
      notify.error({ title: FAMILY.switcherLabel, description: (error as Error).message });
    }
  };
  const remove = async (password: string) => {
    if (!active) return;
    await removeAthlete(active.id, password);
    notify.success(FAMILY.removed(active.firstName), 6000);
    showAthlete();
  };

  return (
    <nav aria-label={FAMILY.switcherLabel} className="flex flex-wrap items-center gap-2" data-testid="athlete-switcher">
      <span className="mr-1 text-xs font-semibold uppercase tracking-wider text-neutral-400">{FAMILY.switcherLabel}</span>
      {athletes.map((a) => (
        <Button
          key={a.id}
          size="sm"
          variant={a.id === activeId ? 'primary' : 'outline'}
          aria-pressed={a.id === activeId}
          disabled={switching !== null}
          onClick={() => void choose(a.id)}
        >
          {a.firstName}
        </Button>
      ))}
      {!familyOnly && (
        <>
          <Button size="sm" variant="ghost" className="text-neutral-200" onClick={() => setAdding(true)}>
            <UserPlus className="h-4 w-4" aria-hidden /> {FAMILY.add}
          </Button>
          <AddAthleteDialog
            open={adding}
            initial={pending}
            onOpenChange={(open) => {
              setAdding(open);
              if (!open) {
                setPending(null);
                forgetPendingAthlete();
              }
            }}
          />
        </>
      )}
      {!familyOnly && active && athletes.length > 1 && (
        <PasswordEraseDialog
          texts={{
            title: FAMILY.removeTitle(active.firstName),
            body: FAMILY.removeBody(active.firstName),
            confirm: FAMILY.removeConfirm,
            busy: 'Removing...',
            cancel: 'Keep',
            failed: CLOSE_ACCOUNT.wrongPassword,
          }}
          onErase={remove}
          trigger={
            <Button size="sm" variant="ghost" className="ml-auto text-neutral-400">
              {FAMILY.remove}
            </Button>
          }
        />
      )}
    </nav>
  );
}
