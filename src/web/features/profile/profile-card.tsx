import { DASHBOARD } from '../../../common/dashboard-messages';
import { PARENTAL_CONSENT } from '../../../common/parental-consent-messages';
import type { ProfileDto } from '../../../server/profiles/service';
import { Fragment, useState } from 'react';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { useWithdrawParentalConsent } from './api';

/** Break opportunities after an e-mail's or username's "@", dots and underscores, so it wraps there first. */
function breakable(value: string | number) {
  return String(value)
    .split(/(?<=[@._])/)
    .map((part, i) => (
      <Fragment key={i}>
        {i > 0 && <wbr />}
        {part}
      </Fragment>
    ));
}

export function ProfileCard({ profile, familyOnly = false }: { profile: ProfileDto; familyOnly?: boolean }) {
  const rows: Array<[string, string | number | null]> = [
    ['First Name', profile.firstName || null],
    ['Last Name', profile.lastName || null],
    ['Email', profile.email],
    ['Username', profile.username],
    ['Team', profile.teamName],
    ['Jersey Number', profile.jerseyNumber],
    ['Phone', profile.phone],
    ['City', profile.city],
    ['State', profile.state],
  ];
  return (
    <Card>
      <CardTitle className="mb-4">{DASHBOARD.cards.profile}</CardTitle>
      <dl className="divide-y divide-neutral-800">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 py-2.5 text-sm">
            <dt className="shrink-0 text-neutral-400">{label}</dt>
            {/* A long e-mail or team wraps, between words where it can, inside a word where it must. */}
            <dd className={value == null ? 'italic text-neutral-400' : 'min-w-0 text-right text-white wrap-anywhere'}>
              {value == null ? DASHBOARD.notSpecified : breakable(value)}
            </dd>
          </div>
        ))}
      </dl>
      {profile.parentalConsent && <ParentalConsentRecord consent={profile.parentalConsent} familyOnly={familyOnly} />}
    </Card>
  );
}

/** Under 13: who gave the consent and when, and a way to withdraw it (decision 0035). */
function ParentalConsentRecord({ consent, familyOnly }: { consent: { by: string; at: string }; familyOnly: boolean }) {
  const withdraw = useWithdrawParentalConsent();
  const [asking, setAsking] = useState(false);
  const date = new Date(consent.at).toLocaleDateString(undefined, { month: 'long', day: 'numeric', year: 'numeric' });
  return (
    <div className="mt-4 rounded-md border border-neutral-800 p-3 text-sm" data-testid="parental-consent-record">
      <p className="font-semibold text-white">{PARENTAL_CONSENT.title}</p>
      <p className="mt-1 text-neutral-300">{PARENTAL_CONSENT.given(consent.by, date)}</p>
      {!familyOnly && (
        <Button size="sm" variant="outline" className="mt-3" onClick={() => setAsking(true)}>
          {PARENTAL_CONSENT.withdraw}
        </Button>
      )}
      <Dialog open={asking} onOpenChange={(open) => !withdraw.isPending && setAsking(open)}>
        <DialogContent title={PARENTAL_CONSENT.withdrawConfirm.title} description={PARENTAL_CONSENT.withdrawConfirm.body}>
          <DialogFooter>
            <Button variant="outline" onClick={() => setAsking(false)} disabled={withdraw.isPending}>
              {PARENTAL_CONSENT.withdrawConfirm.cancel}
            </Button>
            <Button
              disabled={withdraw.isPending}
              onClick={() =>
                withdraw.mutate(undefined, {
                  onSuccess: () => {
                    setAsking(false);
                    notify.success(PARENTAL_CONSENT.withdrawn);
                  },
                  onError: (error) => notify.error({ title: PARENTAL_CONSENT.title, description: error.message }),
                })
              }
            >
              {PARENTAL_CONSENT.withdrawConfirm.confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
