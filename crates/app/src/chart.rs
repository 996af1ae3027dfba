//! The charts: buffer-pool pages, and throughput with latency, over virtual time, one
//! point per virtual second, as a monitoring dashboard would plot the server's status
//! counters.
//!
//! ```text
//!   pages   Innodb_buffer_pool_pages_{data,free,dirty,misc} + stale pages, one axis
//!   tps     queries/s on the left axis; latency avg/p95/max on the right, log scale
//! ```
//!
//! Statements from the console are shaded bands from StatementStarted to
//! StatementFinished on both, so the figure a DROP TABLE leaves (free pages jumping at
//! once and a latency spike on 5.7; stale pages appearing and draining for tens of
//! seconds on 8.0.23) lines up with the statement that caused it. A 5.7 drop lasts well
//! under a second, so a band is at least a few pixels wide.
//!
//! Latency is on a log scale because the interesting seconds are the outliers: a
//! point select takes a fraction of a millisecond, and the one that waited behind a
//! pool mutex for the whole LRU scan takes tens or hundreds. A second without a
//! finished statement has no latency, and its lines break there rather than dive.
//!
//! Drawn with plotters on its canvas backend, only when a sample arrives (or the
//! canvas, the theme or the statements change), never every frame. The x axis shows
//! the whole run while it is short, then the last 90 virtual seconds.

use crate::format;
use crate::runner::DdlSpan;
use crate::theme::{self, Rgb, Theme};
use ddlscope_engine::{Sample, Tick};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The canvases' CSS height.
const CSS_HEIGHT: f64 = 200.0;
/// Seconds shown once the run is longer than this.
const WINDOW_S: f64 = 90.0;
/// The axis is never shorter than this.
const MIN_SPAN_S: f64 = 30.0;
/// Narrowest band, CSS px.
const MIN_BAND_PX: f64 = 4.0;
/// Data pages: the colour of clean pages in the stylesheet (`--page-clean`).
const DATA: Rgb = [0x3b, 0x82, 0xf6];
/// The latency axis never goes below this, ms (10 µs).
const LATENCY_FLOOR_MS: f64 = 0.01;

/// Sizes the canvas's pixel buffer to its CSS width × device pixel ratio. Returns the
/// size in device pixels.
pub fn fit_canvas(canvas: &HtmlCanvasElement, dpr: f64) -> (u32, u32) {
    crate::canvas::fit(canvas, CSS_HEIGHT, dpr)
}

/// The x range in seconds for a run whose last sample is at `last_s`.
fn x_range(last_s: f64) -> (f64, f64) {
    let lo = (last_s - WINDOW_S).max(0.0).floor();
    let hi = (last_s + 2.0).max(lo + MIN_SPAN_S);
    (lo, hi)
}

/// The latency axis for seconds whose fastest mean is `min_ms` and slowest statement
/// `max_ms`: whole decades around both, at least two of them.
fn latency_range(min_ms: f64, max_ms: f64) -> (f64, f64) {
    let decade = |v: f64, up: bool| {
        let e = v.max(LATENCY_FLOOR_MS).log10();
        10f64.powf(if up { e.ceil() } else { e.floor() })
    };
    let lo = decade(min_ms, false);
    let hi = decade(max_ms * 1.2, true).max(lo * 100.0);
    (lo, hi)
}

/// `v` ms as an axis label: `0.01`, `0.1`, `1`, `1000`.
fn ms_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else if v >= 0.1 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The lines of a series with gaps: runs of consecutive points that have a value.
fn runs(points: impl Iterator<Item = (f64, Option<f64>)>) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (x, y) in points {
        match y {
            Some(y) => out.last_mut().expect("never empty").push((x, y)),
            None if out.last().is_some_and(|r| !r.is_empty()) => out.push(Vec::new()),
            None => {}
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// What both charts are drawn from.
#[derive(Debug)]
pub struct Frame<'a> {
    /// The samples so far.
    pub samples: &'a [Sample],
    /// The console statements.
    pub spans: &'a [DdlSpan],
    /// The virtual time.
    pub now: Tick,
    /// The colours.
    pub theme: &'a Theme,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
}

impl Frame<'_> {
    /// The x range: the last sample or now, whichever is later.
    fn x_range(&self) -> (f64, f64) {
        let last_s = self
            .samples
            .last()
            .map_or(0.0, |s| s.t_s as f64)
            .max(self.now.as_secs_f64().floor());
        x_range(last_s)
    }
    /// The samples on the x range (plotters does not clip lines to it).
    fn visible(&self, x_lo: f64) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(move |s| s.t_s as f64 >= x_lo)
    }
    fn font(&self, size: f64, colour: Rgb) -> TextStyle<'static> {
        TextStyle {
            color: rgb(colour).to_backend_color(),
            ..TextStyle::from(("system-ui, sans-serif", size * self.dpr).into_font())
        }
    }
    fn line(&self, c: Rgb, width_px: f64) -> ShapeStyle {
        rgb(c).stroke_width((width_px * self.dpr).round().max(1.0) as u32)
    }
}

/// A chart with seconds across and a linear value up.
/// One line of a chart: which figure of a sample, in what colour and width (CSS px).
struct Series<T> {
    value: fn(&Sample) -> T,
    colour: Rgb,
    width_px: f64,
}

fn series<T>(value: fn(&Sample) -> T, colour: Rgb, width_px: f64) -> Series<T> {
    Series {
        value,
        colour,
        width_px,
    }
}

type Plot<'a> = ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The canvas's drawing area, cleared to the background.
fn area(
    canvas: &HtmlCanvasElement,
    theme: &Theme,
) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, String> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("the chart canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&rgb(theme.background)).map_err(err)?;
    Ok(root)
}

/// The console statements' bands, under the lines, labelled at the top.
fn ddl_bands(chart: &mut Plot<'_>, f: &Frame<'_>, y_hi: f64) -> Result<(), String> {
    let x = chart.x_range();
    let (x_lo, x_hi) = (x.start, x.end);
    let px = chart.plotting_area().get_pixel_range().0;
    let secs_per_px = (x_hi - x_lo) / f64::from((px.end - px.start).max(1));
    let min_w = MIN_BAND_PX * f.dpr * secs_per_px;
    let band = rgb(f.theme.ddl_band);
    let visible: Vec<(f64, f64, &str)> = f
        .spans
        .iter()
        .map(|s| {
            let t0 = s.t0.as_secs_f64();
            let t1 = s.t1.unwrap_or(f.now).as_secs_f64().max(t0 + min_w);
            (t0, t1, s.sql.as_str())
        })
        .filter(|(t0, t1, _)| *t1 >= x_lo && *t0 <= x_hi)
        .collect();
    chart
        .draw_series(visible.iter().map(|(t0, t1, _)| {
            Rectangle::new(
                [(t0.max(x_lo), 0.0), (t1.min(x_hi), y_hi)],
                band.mix(if f.theme.dark { 0.3 } else { 0.22 }).filled(),
            )
        }))
        .map_err(err)?;
    chart
        .draw_series(visible.iter().map(|(t0, _, sql)| {
            let label: String = if sql.chars().count() > 28 {
                sql.chars().take(27).chain(['…']).collect()
            } else {
                sql.to_string()
            };
            Text::new(
                label,
                (t0.max(x_lo) + 3.0 * f.dpr * secs_per_px, y_hi * 0.995),
                f.font(10.5, f.theme.ddl_band),
            )
        }))
        .map_err(err)?;
    Ok(())
}

/// The note shown until the first sample.
fn waiting_note(
    root: &DrawingArea<CanvasBackend, plotters::coord::Shift>,
    f: &Frame<'_>,
) -> Result<(), String> {
    if f.samples.is_empty() {
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            "the first sample comes at t = 1 s",
            ((w / 2) as i32 - (95.0 * f.dpr) as i32, (h / 2) as i32),
            f.font(12.0, f.theme.text_muted),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// Draws the pages chart. `pages_total` sets the y scale before the first sample.
pub fn draw_pages(
    canvas: &HtmlCanvasElement,
    f: &Frame<'_>,
    pages_total: u64,
) -> Result<(), String> {
    let (theme, dpr) = (f.theme, f.dpr);
    let root = area(canvas, theme)?;
    let (x_lo, x_hi) = f.x_range();
    let total = f
        .samples
        .last()
        .map_or(pages_total, |s| s.pages_total)
        .max(1) as f64;
    let y_hi = total * 1.08;

    let mut chart = ChartBuilder::on(&root)
        .margin_top(10.0 * dpr)
        .margin_right(14.0 * dpr)
        .margin_left(6.0 * dpr)
        .margin_bottom(4.0 * dpr)
        .x_label_area_size(34.0 * dpr)
        .y_label_area_size(44.0 * dpr)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(err)?;
    let y_fmt = |v: &f64| format::count_short(*v);
    let x_fmt = |v: &f64| format!("{v:.0}");
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(rgb(theme.grid).stroke_width(dpr.round().max(1.0) as u32))
        .axis_style(rgb(theme.text_muted))
        .label_style(f.font(11.0, theme.text_muted))
        .axis_desc_style(f.font(11.0, theme.text_muted))
        .x_labels(10)
        .y_labels(6)
        .y_label_formatter(&y_fmt)
        .x_label_formatter(&x_fmt)
        .x_desc("virtual time (s)")
        .draw()
        .map_err(err)?;
    ddl_bands(&mut chart, f, y_hi)?;

    let points = |v: fn(&Sample) -> u64| f.visible(x_lo).map(move |s| (s.t_s as f64, v(s) as f64));
    chart
        .draw_series(
            AreaSeries::new(points(|s| s.pages_stale), 0.0, rgb(theme.stale).mix(0.28))
                .border_style(f.line(theme.stale, 2.0)),
        )
        .map_err(err)?;
    let lines = [
        series(|s| s.pages_misc, theme.memory, 1.5),
        series(|s| s.pages_dirty, theme.dirty_line, 2.0),
        series(|s| s.pages_data, DATA, 2.0),
        series(|s| s.pages_free, theme.free_line, 2.0),
    ];
    for l in &lines {
        chart
            .draw_series(LineSeries::new(
                points(l.value),
                f.line(l.colour, l.width_px),
            ))
            .map_err(err)?;
    }

    // The latest second of each series, marked.
    if let Some(last) = f.samples.last() {
        let t = last.t_s as f64;
        let dot = |v: u64, c: Rgb| Circle::new((t, v as f64), 3.0 * dpr, rgb(c).filled());
        chart
            .draw_series(
                lines
                    .iter()
                    .map(|l| dot((l.value)(last), l.colour))
                    .chain([dot(last.pages_stale, theme.stale)]),
            )
            .map_err(err)?;
    }

    waiting_note(&root, f)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Draws the throughput and latency chart.
pub fn draw_tps(canvas: &HtmlCanvasElement, f: &Frame<'_>) -> Result<(), String> {
    let (theme, dpr) = (f.theme, f.dpr);
    let root = area(canvas, theme)?;
    let (x_lo, x_hi) = f.x_range();
    let qps_max = f.visible(x_lo).map(|s| s.qps).max().unwrap_or(0).max(10) as f64;
    let y_hi = qps_max * 1.15;
    // Seconds without a finished statement have no latency.
    let timed = || f.visible(x_lo).filter(|s| s.qps > 0);
    let fastest = timed()
        .map(|s| s.latency_avg_ms)
        .fold(f64::INFINITY, f64::min);
    let slowest = timed().map(|s| s.latency_max_ms).fold(0.0, f64::max);
    let (lat_lo, lat_hi) = if slowest > 0.0 {
        latency_range(fastest, slowest)
    } else {
        (0.01, 10.0)
    };

    let mut chart = ChartBuilder::on(&root)
        .margin_top(10.0 * dpr)
        .margin_right(6.0 * dpr)
        .margin_left(6.0 * dpr)
        .margin_bottom(4.0 * dpr)
        .x_label_area_size(34.0 * dpr)
        .y_label_area_size(44.0 * dpr)
        .right_y_label_area_size(40.0 * dpr)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(err)?
        // A hair wider than whole decades: plotters labels a decade only when its
        // logarithm, computed in floating point, lies inside the range.
        .set_secondary_coord(x_lo..x_hi, (lat_lo * 0.999..lat_hi * 1.001).log_scale());
    let y_fmt = |v: &f64| format::count_short(*v);
    let x_fmt = |v: &f64| format!("{v:.0}");
    let ms_fmt = |v: &f64| ms_label(*v);
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(rgb(theme.grid).stroke_width(dpr.round().max(1.0) as u32))
        .axis_style(rgb(theme.text_muted))
        .label_style(f.font(11.0, theme.text_muted))
        .axis_desc_style(f.font(11.0, theme.text_muted))
        .x_labels(8)
        .y_labels(5)
        .y_label_formatter(&y_fmt)
        .x_label_formatter(&x_fmt)
        .x_desc("virtual time (s)")
        .draw()
        .map_err(err)?;
    chart
        .configure_secondary_axes()
        .axis_style(rgb(theme.text_muted))
        .label_style(f.font(11.0, theme.text_muted))
        .y_labels(6)
        .y_label_formatter(&ms_fmt)
        .draw()
        .map_err(err)?;
    ddl_bands(&mut chart, f, y_hi)?;

    // A line, not an area: a filled area would read as one of the statement bands.
    chart
        .draw_series(LineSeries::new(
            f.visible(x_lo).map(|s| (s.t_s as f64, s.qps as f64)),
            f.line(theme.qps, 2.0),
        ))
        .map_err(err)?;
    let latencies = [
        series(|s| s.latency_avg_ms, theme.latency_avg, 1.5),
        series(|s| s.latency_p95_ms, theme.latency_p95, 1.5),
        series(|s| s.latency_max_ms, theme.latency_max, 1.5),
    ];
    for l in &latencies {
        let points = f.visible(x_lo).map(|s| {
            let v = (s.qps > 0).then(|| (l.value)(s).clamp(lat_lo, lat_hi));
            (s.t_s as f64, v)
        });
        for run in runs(points) {
            chart
                .draw_secondary_series(LineSeries::new(run, f.line(l.colour, l.width_px)))
                .map_err(err)?;
        }
    }

    waiting_note(&root, f)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Properties of [`Chart`] and [`TpsChart`].
#[derive(Properties, PartialEq, Debug)]
pub struct ChartProps {
    /// The canvas the frame loop draws into.
    pub canvas: NodeRef,
}

/// A legend entry: a swatch in `swatch_style`, a name, and a tooltip.
fn entry(swatch_style: String, name: &str, title: &str) -> Html {
    html! {
        <li title={title.to_string()}><span class="swatch" style={swatch_style}></span>{ name.to_string() }</li>
    }
}

/// The legend entry of the console statements' bands.
fn ddl_entry() -> Html {
    entry(
        "--swatch: color-mix(in srgb, var(--warning) 35%, transparent)".into(),
        "a statement from the console running",
        "From StatementStarted to StatementFinished",
    )
}

/// The pages chart panel: title, canvas and legend. The frame loop does the drawing.
#[function_component(Chart)]
pub fn chart(props: &ChartProps) -> Html {
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    let swatch = |pick: fn(&Theme) -> Rgb| format!("--swatch: {}", theme::swatch_css(pick));
    html! {
        <section class="panel charts" aria-labelledby="chart-title">
            <h2 class="panel-title" id="chart-title">
                <span>{ "Buffer pool pages" }</span>
                <span style={subtle}>{ "Innodb_buffer_pool_pages_*, per virtual second" }</span>
            </h2>
            <canvas
                ref={props.canvas.clone()}
                data-testid="chart-bp"
                style={format!("height: {CSS_HEIGHT}px")}
                role="img"
                aria-label="Chart of data, free, dirty, borrowed and stale buffer-pool pages over virtual time, with DDL statements shaded"
            />
            <ul class="legend">
                { entry(format!("--swatch: {}", theme::css(DATA)), "data", "Innodb_buffer_pool_pages_data: pages holding data, stale ones included") }
                { entry("--swatch: var(--ok)".into(), "free", "Innodb_buffer_pool_pages_free: blocks on the free lists") }
                { entry(swatch(|t| t.dirty_line), "dirty", "Innodb_buffer_pool_pages_dirty: modified pages not yet written") }
                { entry(swatch(|t| t.memory), "misc (AHI / lock memory)", "Innodb_buffer_pool_pages_misc: frames lent to the adaptive hash index and the lock heaps") }
                <li title="Pages of dropped tablespaces still in the LRU lists (8.0.23+); not a server status variable"><span class="swatch stale"></span>{ "stale" }</li>
                { ddl_entry() }
            </ul>
        </section>
    }
}

/// The throughput and latency chart panel. The frame loop does the drawing.
#[function_component(TpsChart)]
pub fn tps_chart(props: &ChartProps) -> Html {
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    let swatch = |pick: fn(&Theme) -> Rgb| format!("--swatch: {}", theme::swatch_css(pick));
    html! {
        <section class="panel charts" aria-labelledby="tps-title">
            <h2 class="panel-title" id="tps-title">
                <span>{ "Throughput and latency" }</span>
                <span style={subtle}>{ "right axis: latency, ms, log scale" }</span>
            </h2>
            <canvas
                ref={props.canvas.clone()}
                data-testid="chart-tps"
                style={format!("height: {CSS_HEIGHT}px")}
                role="img"
                aria-label="Chart of queries per second and statement latency (mean, 95th percentile, longest) over virtual time, with DDL statements shaded"
            />
            <ul class="legend">
                { entry(swatch(|t| t.qps), "queries / s", "Statements finished per virtual second (left axis)") }
                { entry(swatch(|t| t.latency_avg), "latency avg", "Mean statement latency in the second, ms (right axis)") }
                { entry(swatch(|t| t.latency_p95), "p95", "95th percentile statement latency in the second, ms (right axis)") }
                { entry(swatch(|t| t.latency_max), "max", "Longest statement that finished in the second, ms (right axis)") }
                { ddl_entry() }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_shows_the_whole_short_run_then_a_sliding_window() {
        assert_eq!(x_range(0.0), (0.0, 30.0));
        assert_eq!(x_range(20.0), (0.0, 30.0));
        assert_eq!(x_range(40.0), (0.0, 42.0));
        assert_eq!(x_range(200.0), (110.0, 202.0));
    }

    #[test]
    fn the_latency_axis_spans_whole_decades_around_the_data() {
        assert_eq!(latency_range(0.2, 3.0), (0.1, 10.0));
        assert_eq!(latency_range(0.2, 450.0), (0.1, 1000.0));
        // At least two decades, and never below 10 µs.
        assert_eq!(latency_range(0.5, 0.6), (0.1, 10.0));
        assert_eq!(latency_range(0.0, 0.001), (0.01, 1.0));
        assert_eq!(ms_label(0.01), "0.01");
        assert_eq!(ms_label(0.1), "0.1");
        assert_eq!(ms_label(1000.0), "1000");
    }

    #[test]
    fn a_series_breaks_where_a_second_has_no_value() {
        let points = [
            (1.0, Some(0.2)),
            (2.0, None),
            (3.0, Some(0.3)),
            (4.0, Some(0.4)),
        ];
        assert_eq!(
            runs(points.into_iter()),
            [vec![(1.0, 0.2)], vec![(3.0, 0.3), (4.0, 0.4)]]
        );
        assert!(runs([(1.0, None)].into_iter()).is_empty());
    }
}
