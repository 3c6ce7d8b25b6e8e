import { useMemo } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { Overview } from '../../../api/types.gen.ts';
import { useLoad } from '../../../api/use-load.ts';
import { adminMessages, adminProblemMessage } from '../../../i18n/admin-messages.ts';
import { LoadFailed } from '../../../layout/load-failed.tsx';
import { formatPercent } from '../parts/format.ts';
import { useQueryState } from '../parts/query.ts';
import { moneyFormats, perCurrency } from './currency-figures.ts';
import { TimeChart, type ChartSeries } from './time-chart.tsx';

const PERIODS = [7, 30, 90] as const;
/** The decline reasons drawn one line each; the rest stay in the list below the chart. */
const CHARTED_REASONS = 4;
const REASON_COLORS = ['--chart-danger', '--chart-2', '--chart-3', '--chart-4'] as const;

export function OverviewPage() {
  const query = useQueryState();
  const days = PERIODS.find((period) => String(period) === query.get('days')) ?? 30;
  const loaded = useLoad(() => adminApi.overview(days), String(days));
  return (
    <section aria-labelledby="overview-title" className="admin-section overview">
      <header className="admin-header">
        <h1 id="overview-title">{adminMessages.overviewTitle}</h1>
        <div className="segmented" role="group" aria-label={adminMessages.period}>
          {PERIODS.map((period) => (
            <button
              key={period}
              type="button"
              aria-pressed={period === days}
              onClick={() => query.set({ days: period === 30 ? null : String(period) })}
            >
              {adminMessages.periodDays(period)}
            </button>
          ))}
        </div>
      </header>
      {loaded.status === 'loading' && <p className="status">{adminMessages.working}</p>}
      {loaded.status === 'failed' && <LoadFailed problem={loaded.problem} retry={loaded.retry} describe={adminProblemMessage} />}
      {loaded.status === 'ready' && <OverviewBody overview={loaded.data} />}
    </section>
  );
}

function OverviewBody({ overview }: { overview: Overview }) {
  // Money is shown per currency (never summed across them): the shop's main currency first.
  const currency = overview.volume[0]?.currency ?? overview.refunds[0]?.currency ?? 'EUR';
  const succeeded = overview.succeeded.reduce((sum, value) => sum + value, 0);
  const count = useMemo(() => (value: number) => String(Math.round(value)), []);
  const charts = useMemo(() => {
    const volumeCharts = moneyCharts(
      overview.volume.length > 0 ? overview.volume : [{ currency, amounts: overview.days.map(() => 0), total: 0 }],
      adminMessages.grossVolume,
      '--chart-1',
    );
    const refundCharts = moneyCharts(overview.refunds, adminMessages.refunded, '--chart-2');
    const paymentSeries: ChartSeries[] = [
      { label: adminMessages.succeededSeries, values: overview.succeeded, colorVar: '--chart-1' },
      { label: adminMessages.declinedSeries, values: overview.declined, colorVar: '--chart-danger' },
    ];
    const approvalSeries: ChartSeries[] = [
      {
        label: adminMessages.approvalRate,
        values: overview.succeeded.map((ok, index) => {
          const tried = ok + (overview.declined[index] ?? 0);
          return tried === 0 ? null : ok / tried;
        }),
        colorVar: '--chart-4',
      },
    ];
    const reasonSeries: ChartSeries[] = overview.declineReasons
      .slice(0, CHARTED_REASONS)
      .map((reason, index) => ({ label: reason.reason, values: reason.counts, colorVar: REASON_COLORS[index] ?? '--chart-4' }));
    return { volumeCharts, refundCharts, paymentSeries, approvalSeries, reasonSeries };
  }, [overview, currency]);

  return (
    <>
      <dl className="kpis">
        <div className="kpi card">
          <dt>{adminMessages.grossVolume}</dt>
          <MoneyFigures figures={perCurrency(overview.volume, currency)} />
        </div>
        <div className="kpi card">
          <dt>{adminMessages.successfulPayments}</dt>
          <dd>{succeeded}</dd>
        </div>
        <div className="kpi card">
          <dt>{adminMessages.approvalRate}</dt>
          <dd>{overview.approvalRate === null ? adminMessages.dash : formatPercent(overview.approvalRate)}</dd>
        </div>
        <div className="kpi card">
          <dt>{adminMessages.refunded}</dt>
          <MoneyFigures figures={perCurrency(overview.refunds, currency)} />
        </div>
      </dl>
      <div className="charts">
        {charts.volumeCharts.map((chart) => (
          <MoneyChart
            key={chart.currency}
            chart={chart}
            days={overview.days}
            title={charts.volumeCharts.length > 1 ? adminMessages.volumeChartIn(chart.currency) : adminMessages.volumeChart}
          />
        ))}
        <TimeChart
          title={adminMessages.paymentsChart}
          days={overview.days}
          series={charts.paymentSeries}
          format={count}
          kind="bars"
        />
        <TimeChart
          title={adminMessages.approvalChart}
          days={overview.days}
          series={charts.approvalSeries}
          format={formatPercent}
          step={0.01}
          max={1}
          summary={adminMessages.approvalChartSummary(
            adminMessages.approvalChart,
            overview.approvalRate === null ? adminMessages.dash : formatPercent(overview.approvalRate),
          )}
        />
        {charts.reasonSeries.length > 0 ? (
          <TimeChart title={adminMessages.declinesChart} days={overview.days} series={charts.reasonSeries} format={count} />
        ) : (
          <figure className="chart card">
            <figcaption className="chart-title">{adminMessages.declinesChart}</figcaption>
            <p className="muted">{adminMessages.noDeclines}</p>
          </figure>
        )}
        {charts.refundCharts.length > 0 ? (
          charts.refundCharts.map((chart) => (
            <MoneyChart
              key={`refunds-${chart.currency}`}
              chart={chart}
              days={overview.days}
              title={charts.refundCharts.length > 1 ? adminMessages.refundsChartIn(chart.currency) : adminMessages.refundsChart}
            />
          ))
        ) : (
          <figure className="chart card">
            <figcaption className="chart-title">{adminMessages.refundsChart}</figcaption>
            <p className="muted">{adminMessages.noRefunds}</p>
          </figure>
        )}
        <section aria-labelledby="reasons-title" className="card reasons">
          <h2 id="reasons-title" className="chart-title">
            {adminMessages.declineReasonsTitle}
          </h2>
          {overview.declineReasons.length === 0 ? (
            <p className="muted">{adminMessages.noDeclines}</p>
          ) : (
            <ol className="reason-list">
              {overview.declineReasons.map((reason) => (
                <li key={reason.reason}>
                  <span>{reason.reason}</span>
                  <span className="muted">{adminMessages.declineCount(reason.total)}</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
      <p className="fine-print">{adminMessages.utcNote}</p>
    </>
  );
}

interface MoneyChartData {
  currency: string;
  formats: ReturnType<typeof moneyFormats>;
  series: ChartSeries[];
}

/** One chart per currency of a money series (never summed across currencies). */
function moneyCharts(
  entries: readonly { currency: string; amounts: readonly number[] }[],
  label: string,
  colorVar: string,
): MoneyChartData[] {
  return entries.map((entry) => ({
    currency: entry.currency,
    formats: moneyFormats(entry.currency),
    series: [{ label, values: entry.amounts, colorVar }],
  }));
}

function MoneyChart({ chart, days, title }: { chart: MoneyChartData; days: readonly string[]; title: string }) {
  return (
    <TimeChart
      title={title}
      days={days}
      series={chart.series}
      format={chart.formats.value}
      axisFormat={chart.formats.axis}
      step={chart.formats.step}
    />
  );
}

/**
 * A money figure per currency, one line each. A currency written with its code may break after it where the card has
 * no room for the figure whole (Intl joins them with a no-break space): an extreme month in francs, "CHF
 * 123,456,789.00", was 228 px wide in a 194 px card at 1,265 px; "€123,456,789.00" has no space, and fits.
 */
function MoneyFigures({ figures }: { figures: string[] }) {
  return (
    <dd className="kpi-figures">
      {figures.map((figure) => (
        <span key={figure}>{figure.replace(/\u00a0/g, ' ')}</span>
      ))}
    </dd>
  );
}
