import { DASHBOARD } from '../../../common/dashboard-messages';
import type { ProfileDto } from '../../../server/profiles/service';
import { Fragment } from 'react';
import { Card, CardTitle } from '../../ui/card';

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
            <dt className="shrink-0 text-neutral-400">{label}</dt>
            {/* A long e-mail or team wraps, between words where it can, inside a word where it must. */}
            <dd className={value == null ? 'italic text-neutral-400' : 'min-w-0 text-right text-white wrap-anywhere'}>
              {value == null ? DASHBOARD.notSpecified : breakable(value)}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
