// The estimate form's profile editor: requests per second for each hour of an average day or week,
// typed hour by hour or filled from a shape and a peak.
import type { EstimateForm } from '../../forms';
import { hourLabel, PERIOD_HOURS, PERIODS, PROFILE_PRESETS, profileOf, WEEKDAYS, type Period, type ProfilePreset } from '../../profiles';
import type { SetField } from './FormFields';

type Update = (update: (f: EstimateForm) => EstimateForm) => void;

export function ProfileEditor(props: { form: EstimateForm; set: SetField; setForm: Update; error: string | undefined }) {
  const { form, error } = props;
  const period: Period = form.profile.length === PERIOD_HOURS.week ? 'week' : 'day';
  return (
    <fieldset class="field profile wide" aria-describedby={error ? 'est-profile-error' : undefined}>
      <legend>Requests per second, hour by hour (an average {period})</legend>
      <ProfileTools form={form} set={props.set} setForm={props.setForm} />
      {(period === 'week' ? WEEKDAYS.map((day, d) => ({ day, from: d * 24 })) : [{ day: null, from: 0 }]).map(({ day, from }) => (
        <ProfileDay key={from} day={day} from={from} profile={form.profile} setForm={props.setForm} />
      ))}
      {error && (
        <small id="est-profile-error" class="error" role="alert" data-field-error="est-profile">
          {error}
        </small>
      )}
    </fieldset>
  );
}

/** The period, a shape and a peak, and the button that fills every hour from them. */
function ProfileTools(props: { form: EstimateForm; set: SetField; setForm: Update }) {
  const { form, set } = props;
  const fill = (changes: Partial<EstimateForm>) =>
    props.setForm((f) => {
      const next = { ...f, ...changes };
      return { ...next, profile: profileOf(next.shape as ProfilePreset, Number(next.peak) || 0, next.period as Period) };
    });
  return (
    <div class="profile-tools">
      <label for="est-period">Period</label>
      <select id="est-period" value={form.period} onChange={(ev) => fill({ period: ev.currentTarget.value })}>
        {PERIODS.map((p) => (
          <option key={p} value={p}>
            {p === 'day' ? 'day (24 h)' : 'week (168 h)'}
          </option>
        ))}
      </select>
      <label for="est-shape">Shape</label>
      <select id="est-shape" value={form.shape} onChange={(ev) => set('shape', ev.currentTarget.value)}>
        {PROFILE_PRESETS.map((p) => (
          <option key={p} value={p}>
            {p === 'business' ? 'business hours' : p}
          </option>
        ))}
      </select>
      <label for="est-peak">Peak requests/s</label>
      <input id="est-peak" type="number" step="any" value={form.peak} onInput={(ev) => set('peak', ev.currentTarget.value)} />
      <button type="button" onClick={() => fill({})}>
        Fill the {form.profile.length === PERIOD_HOURS.week ? 168 : 24} hours
      </button>
    </div>
  );
}

/** The 24 hours of one day (of the week, when `day` names it) from hour `from` of the profile. */
function ProfileDay(props: { day: string | null; from: number; profile: readonly number[]; setForm: Update }) {
  const { day, from, profile } = props;
  return (
    <div class="profile-grid" role={day ? 'group' : undefined} aria-label={day ?? undefined}>
      {profile.slice(from, from + 24).map((v, i) => {
        const hour = from + i;
        return (
          <label key={hour} class="hour">
            <span>{hourLabel(hour, profile.length)}</span>
            <input
              type="number"
              step="any"
              min="0"
              value={v}
              aria-label={`Requests per second ${day ? `on ${day} ` : ''}at ${i}:00`}
              onInput={(ev) => {
                const value = Number(ev.currentTarget.value);
                props.setForm((f) => ({ ...f, profile: f.profile.map((x, j) => (j === hour ? value : x)) }));
              }}
            />
          </label>
        );
      })}
    </div>
  );
}
