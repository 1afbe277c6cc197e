import { Chart, useChart } from '@chakra-ui/charts';
import type { ChartDefinition } from '@tessera/contracts';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { memo, useMemo } from 'react';
import type { ChartData } from './chart-data.js';
import { pointsForWidth } from './chart-downsample.js';

/** Series colours, in order (Chakra tokens: the chart follows the theme, light or dark). */
const PALETTE = ['teal.solid', 'purple.solid', 'orange.solid', 'blue.solid', 'pink.solid', 'green.solid', 'red.solid', 'cyan.solid', 'yellow.solid'];

/** Past this many points a line has no dots (10,000 dots cost more than the line). */
const DOTS_UP_TO = 100;
/** Past this many categories the axis labels every nth at a fixed step: Recharts' default measures every label's text to choose. */
const MEASURED_TICKS_UP_TO = 100;
const TICKS_SHOWN = 10;
/** Recharts' value axis width (its default), and the chart's right margin: the plot is this much narrower than the chart. */
const VALUE_AXIS_WIDTH = 60;
const RIGHT_MARGIN = 16;

export interface ChartViewProps {
  chart: ChartDefinition;
  data: ChartData;
  width: number;
  height: number;
}

/**
 * One chart drawn with Chakra UI's charts (Recharts inside): loaded lazily by the chart layer, so
 * a sheet without charts never loads this module. No animation: a chart follows every edit, and
 * an edit must show at once. Memoized: the Workspace renders again for a save status or a version
 * number, and Recharts redoes a whole chart (every point) whenever it renders.
 */
export default memo(function ChartView({ chart, data, width, height }: ChartViewProps) {
  // A line or area longer than the plot is wide is drawn from the points that set its pixels
  // (the plot: the chart less the value axis and the margins; a legend beside it only narrows it further).
  const drawsLine = chart.type === 'line' || chart.type === 'area';
  const leftMargin = chart.y_axis_title ? 16 : 0;
  const plotWidth = width - VALUE_AXIS_WIDTH - RIGHT_MARGIN - leftMargin;
  const points = useMemo(
    () => (drawsLine ? pointsForWidth(data.points, data.series.map((s) => s.key), plotWidth) : data.points),
    [drawsLine, data, plotWidth],
  );
  const view = useChart({
    data: points,
    series: data.series.map((s, i) => ({ name: s.key, label: s.name, color: PALETTE[i % PALETTE.length], stackId: chart.stacked ? 'stack' : undefined })),
  });
  const size = { width, height, data: view.data, margin: { top: 8, right: RIGHT_MARGIN, bottom: chart.x_axis_title ? 24 : 8, left: leftMargin } };
  const legend =
    chart.legend === 'none' ? null : (
      <Legend
        content={<Chart.Legend />}
        verticalAlign={chart.legend === 'top' ? 'top' : chart.legend === 'bottom' ? 'bottom' : 'middle'}
        align={chart.legend === 'left' ? 'left' : chart.legend === 'right' ? 'right' : 'center'}
        layout={chart.legend === 'left' || chart.legend === 'right' ? 'vertical' : 'horizontal'}
      />
    );
  const xTitle = chart.x_axis_title ? { value: chart.x_axis_title, position: 'insideBottom' as const, offset: -16 } : undefined;
  const yTitle = chart.y_axis_title ? { value: chart.y_axis_title, angle: -90, position: 'insideLeft' as const } : undefined;
  const grid = <CartesianGrid stroke={view.color('border.muted')} vertical={false} />;
  const tooltip = <Tooltip animationDuration={0} content={<Chart.Tooltip />} />;
  const interval = points.length > MEASURED_TICKS_UP_TO ? Math.ceil(points.length / TICKS_SHOWN) - 1 : 'preserveEnd';
  const categoryAxis = <XAxis dataKey={view.key('category')} label={xTitle} stroke={view.color('border')} interval={interval} />;
  const valueAxis = <YAxis label={yTitle} stroke={view.color('border')} />;
  const dots = points.length <= DOTS_UP_TO;

  let drawing: React.ReactElement;
  switch (chart.type) {
    case 'column':
    case 'bar': {
      const across = chart.type === 'bar';
      drawing = (
        <BarChart {...size} layout={across ? 'vertical' : 'horizontal'}>
          {grid}
          {across ? <XAxis type="number" label={xTitle} stroke={view.color('border')} /> : categoryAxis}
          {across ? <YAxis type="category" dataKey={view.key('category')} label={yTitle} stroke={view.color('border')} width={80} interval={interval} /> : valueAxis}
          {tooltip}
          {legend}
          {view.series.map((s) => (
            <Bar key={s.name} isAnimationActive={false} dataKey={view.key(s.name)} name={String(s.label)} fill={view.color(s.color)} stackId={s.stackId} />
          ))}
        </BarChart>
      );
      break;
    }
    case 'line':
      drawing = (
        <LineChart {...size}>
          {grid}
          {categoryAxis}
          {valueAxis}
          {tooltip}
          {legend}
          {view.series.map((s) => (
            <Line key={s.name} isAnimationActive={false} type="linear" dot={dots} dataKey={view.key(s.name)} name={String(s.label)} stroke={view.color(s.color)} strokeWidth={2} />
          ))}
        </LineChart>
      );
      break;
    case 'area':
      drawing = (
        <AreaChart {...size}>
          {grid}
          {categoryAxis}
          {valueAxis}
          {tooltip}
          {legend}
          {view.series.map((s) => (
            <Area
              key={s.name}
              isAnimationActive={false}
              type="linear"
              dataKey={view.key(s.name)}
              name={String(s.label)}
              stroke={view.color(s.color)}
              fill={view.color(s.color)}
              fillOpacity={0.3}
              stackId={s.stackId}
            />
          ))}
        </AreaChart>
      );
      break;
    case 'pie': {
      // A pie shows the first series, a slice per category.
      const first = view.series[0];
      drawing = (
        <PieChart width={width} height={height}>
          {tooltip}
          {legend}
          {first && (
            <Pie isAnimationActive={false} data={view.data} dataKey={view.key(first.name)} nameKey="category" outerRadius="80%">
              {view.data.map((p, i) => (
                <Cell key={`${p.category}-${i}`} fill={view.color(PALETTE[i % PALETTE.length])} />
              ))}
            </Pie>
          )}
        </PieChart>
      );
      break;
    }
    case 'scatter':
      // x: the category as a number (a date: its time); points without one are left out.
      drawing = (
        <ScatterChart {...size}>
          {grid}
          <XAxis type="number" dataKey="x" name={chart.x_axis_title || 'x'} label={xTitle} domain={['auto', 'auto']} stroke={view.color('border')} />
          <YAxis type="number" dataKey="y" label={yTitle} stroke={view.color('border')} />
          {tooltip}
          {legend}
          {view.series.map((s) => (
            <Scatter
              key={s.name}
              isAnimationActive={false}
              name={String(s.label)}
              fill={view.color(s.color)}
              data={data.points.flatMap((p) => (p.x !== null && typeof p[s.name as string] === 'number' ? [{ x: p.x, y: p[s.name as string] }] : []))}
            />
          ))}
        </ScatterChart>
      );
      break;
    case 'combo': {
      // Columns for every series but the last, which is a line.
      const bars = view.series.slice(0, Math.max(1, view.series.length - 1));
      const line = view.series.length > 1 ? view.series[view.series.length - 1] : null;
      drawing = (
        <ComposedChart {...size}>
          {grid}
          {categoryAxis}
          {valueAxis}
          {tooltip}
          {legend}
          {bars.map((s) => (
            <Bar key={s.name} isAnimationActive={false} dataKey={view.key(s.name)} name={String(s.label)} fill={view.color(s.color)} stackId={s.stackId} />
          ))}
          {line && <Line isAnimationActive={false} type="linear" dot={dots} dataKey={view.key(line.name)} name={String(line.label)} stroke={view.color(line.color)} strokeWidth={2} />}
        </ComposedChart>
      );
      break;
    }
  }
  return (
    <Chart.Root chart={view} aspectRatio="auto" width={`${width}px`} height={`${height}px`} data-testid="chart-view" data-chart-type={chart.type}>
      {drawing}
    </Chart.Root>
  );
});
