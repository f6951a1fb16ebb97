// One ECharts chart, drawn as SVG (its marks are DOM a browser test can find), with only the
// chart types and components the analysis page uses registered (echarts/core keeps the rest
// out of the bundle). The analysis page is loaded on demand, so the map pages never load this.
import ReactEChartsCore from "echarts-for-react/esm/core";
import { BarChart, GraphChart, HeatmapChart, LineChart, SunburstChart, TreemapChart } from "echarts/charts";
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import type { EChartsOption } from "echarts";

echarts.use([
  BarChart,
  GraphChart,
  HeatmapChart,
  LineChart,
  SunburstChart,
  TreemapChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  SVGRenderer,
]);

/** The app is dark: ECharts' own dark theme, on the card's background. */
export function EChart({ option, height = 340 }: { option: EChartsOption; height?: number }) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      theme="dark"
      option={{ backgroundColor: "transparent", ...option }}
      notMerge
      lazyUpdate
      opts={{ renderer: "svg" }}
      style={{ height, width: "100%" }}
    />
  );
}
