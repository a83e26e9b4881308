import { DASHBOARD } from '../../../common/dashboard-messages';
import type { ProfileDto } from '../../../server/profiles/service';
import { Card, CardTitle } from '../../ui/card';

export function ProfileCard({ profile }: { profile: ProfileDto }) {
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
            <dt className="text-neutral-400">{label}</dt>
            <dd className={value == null ? 'italic text-neutral-400' : 'break-all text-right text-white'}>
              {value ?? DASHBOARD.notSpecified}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
