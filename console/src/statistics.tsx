import { useEffect, useState } from 'preact/hooks';
import { hosting, type Answer } from './api.js';
import type { Ctx } from './main.js';
import { ErrorBox, Field } from './ui.js';

type Statistics = Answer<'/hosting/api/client/{clientId}/domain/{domainId}/statistics'>;
type Day = Statistics['days'][number];

/** The figures of a day the console shows, in the order of the table's columns. */
const FIGURES = ['calls', 'displays', 'acceptAll', 'decline', 'custom', 'bounces'] as const;

const L = {
  en: {
    title: 'Statistics', help: 'Anonymous figures per day (UTC): no visitor is identified, only counts. "Bounces" are banners shown without a decision that day.',
    from: 'From', to: 'To', show: 'Show', rangeLabel: 'Date range', day: 'Day', total: 'Total', rate: 'Acceptance rate',
    figures: { calls: 'Widget calls', displays: 'Banner displays', acceptAll: 'Accept all', decline: 'Decline', custom: 'Custom', bounces: 'Bounces' } as Record<(typeof FIGURES)[number], string>,
    range: (s: Statistics) => `${s.days.length} ${s.days.length === 1 ? 'day' : 'days'} from ${s.from} to ${s.to}: ${s.totals.calls} widget calls, ${s.totals.decisions} decisions.`,
    chart: 'Acceptance rate per day', chartAlt: (s: Statistics, avg: string) => `Acceptance rate per day from ${s.from} to ${s.to}, ${avg} over the whole range; each day's rate is in the table below.`,
    noDecisions: 'no decisions', csv: 'Download as CSV', table: 'Figures per day',
  },
  de: {
    title: 'Statistik', help: 'Anonyme Zahlen pro Tag (UTC): kein Besucher wird erkannt, nur gezählt. „Absprünge“ sind Banner, die an dem Tag ohne Entscheidung angezeigt wurden.',
    from: 'Von', to: 'Bis', show: 'Anzeigen', rangeLabel: 'Zeitraum', day: 'Tag', total: 'Summe', rate: 'Zustimmungsrate',
    figures: { calls: 'Widget-Aufrufe', displays: 'Banner-Anzeigen', acceptAll: 'Alle akzeptiert', decline: 'Abgelehnt', custom: 'Individuell', bounces: 'Absprünge' } as Record<(typeof FIGURES)[number], string>,
    range: (s: Statistics) => `${s.days.length} ${s.days.length === 1 ? 'Tag' : 'Tage'} vom ${s.from} bis ${s.to}: ${s.totals.calls} Widget-Aufrufe, ${s.totals.decisions} Entscheidungen.`,
    chart: 'Zustimmungsrate pro Tag', chartAlt: (s: Statistics, avg: string) => `Zustimmungsrate pro Tag vom ${s.from} bis ${s.to}, ${avg} über den ganzen Zeitraum; die Rate jedes Tages steht in der Tabelle darunter.`,
    noDecisions: 'keine Entscheidungen', csv: 'Als CSV herunterladen', table: 'Zahlen pro Tag',
  },
};

/** A UTC day `days` before today, YYYY-MM-DD. */
const dayBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A domain's consent statistics (docs/statistics.md): a range, the figures per day, the acceptance rate as a chart, CSV. */
export function StatisticsPanel({ ctx, base }: { ctx: Ctx; base: string }) {
  const l = L[ctx.lang];
  // The API's default range: the last 30 days, today included.
  const [range, setRange] = useState({ from: dayBefore(29), to: dayBefore(0) });
  const [stats, setStats] = useState<Statistics | null>(null);
  const [error, setError] = useState<unknown>(null);
  const percent = new Intl.NumberFormat(ctx.lang === 'de' ? 'de-DE' : 'en-US', { style: 'percent', maximumFractionDigits: 1 });
  const query = `from=${range.from}&to=${range.to}`;
  const load = async () => {
    setError(null);
    try {
      setStats(await hosting<Statistics>('GET', `${base}/statistics?${query}`));
    } catch (err) {
      setStats(null);
      setError(err);
    }
  };
  useEffect(() => void load(), [base]);
  const rate = (d: Day) => (d.decisions === 0 ? l.noDecisions : percent.format(d.acceptanceRate));
  return (
    <section class="card" aria-labelledby="statistics">
      <h2 id="statistics">{l.title}</h2>
      <p class="help">{l.help}</p>
      <form class="inline-add" aria-label={l.rangeLabel} onSubmit={(e) => { e.preventDefault(); void load(); }}>
        <Field label={l.from}>{(id) => <input id={id} type="date" required value={range.from} onInput={(e) => setRange({ ...range, from: e.currentTarget.value })} />}</Field>
        <Field label={l.to}>{(id) => <input id={id} type="date" required value={range.to} onInput={(e) => setRange({ ...range, to: e.currentTarget.value })} />}</Field>
        <button type="submit">{l.show}</button>
      </form>
      <ErrorBox error={error} title={ctx.t('errorTitle')} />
      <p class="status" role="status" aria-live="polite">{stats ? l.range(stats) : ''}</p>
      {stats && (
        <>
          <figure class="chart">
            <figcaption id="stats-chart">{l.chart}</figcaption>
            <div class="chart-box">
              <div class="chart-axis" aria-hidden="true"><span>{percent.format(1)}</span><span>{percent.format(0.5)}</span><span>{percent.format(0)}</span></div>
              <RateChart days={stats.days} label={l.chartAlt(stats, rate(stats.totals))} />
            </div>
          </figure>
          <p><a href={`../hosting/api${base}/statistics?from=${stats.from}&to=${stats.to}&format=csv`} download>{l.csv}</a></p>
          <div class="table-wrap" role="region" tabIndex={0} aria-label={l.table}>
            <table>
              <caption class="sr-only">{l.table}</caption>
              <thead>
                <tr><th scope="col">{l.day}</th>{FIGURES.map((f) => <th scope="col">{l.figures[f]}</th>)}<th scope="col">{l.rate}</th></tr>
              </thead>
              <tbody>
                {[...stats.days].reverse().map((d) => (
                  <tr key={d.day}><th scope="row">{d.day}</th>{FIGURES.map((f) => <td>{d[f]}</td>)}<td>{rate(d)}</td></tr>
                ))}
              </tbody>
              <tfoot>
                <tr><th scope="row">{l.total}</th>{FIGURES.map((f) => <td>{stats.totals[f]}</td>)}<td>{rate(stats.totals)}</td></tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * The acceptance rate per day as bars (oldest left), with gridlines at 0, 50 and 100 %. One image for screen
 * readers, named by its text alternative; the table below holds every day's figure.
 */
function RateChart({ days, label }: { days: Day[]; label: string }) {
  const w = 10;
  return (
    <svg class="rate-chart" role="img" aria-label={label} viewBox={`0 0 ${days.length * w} 100`} preserveAspectRatio="none">
      {[0, 50, 100].map((y) => <line x1={0} x2={days.length * w} y1={y} y2={y} class="grid-line" vector-effect="non-scaling-stroke" />)}
      {days.map((d, i) => d.decisions > 0 && <rect x={i * w + 1} width={w - 2} y={100 - d.acceptanceRate * 100} height={Math.max(d.acceptanceRate * 100, 0.5)} data-day={d.day} />)}
    </svg>
  );
}
