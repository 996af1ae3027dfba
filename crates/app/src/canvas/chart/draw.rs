//! Drawing the three charts with plotters on its canvas backend.
//!
//! Each `draw_*` clears its canvas, draws the axes, the bands (under the lines), the
//! series and the latest point, and returns what the pointer handlers need: the plot
//! area's mapping and the bands' rectangles, in CSS px ([`Drawn`]).
//!
//! Cost: a chart is a few hundred canvas calls. Series longer than the plot is wide
//! are thinned to about one point per CSS pixel column ([`geometry::thin`]), so a
//! five-minute window costs the same at any run length.

use super::bands::{shorten, Band, BandKind};
use super::geometry::{self, Drawn, HitBand, XMap};
use crate::canvas::theme::{Rgb, Theme};
use crate::model::format;
use ddlscope_engine::Sample;
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use std::ops::Range;
use web_sys::HtmlCanvasElement;

/// Data pages: the colour of clean pages in the stylesheet (`--page-clean`).
pub const DATA: Rgb = [0x3b, 0x82, 0xf6];

/// Narrowest band, CSS px: a 5.7 DROP TABLE lasts well under a second.
const MIN_BAND_PX: f64 = 4.0;
/// Axis labels and band labels, CSS px (presenter mode draws them larger:
/// [`Frame::label_px`]).
pub const LABEL_PX: f64 = 12.0;
/// The time axis's labels and their description, CSS px at [`LABEL_PX`]; presenter
/// mode leaves the description out, for the plots' room.
const X_AXIS_PX: f64 = 36.0;
const X_AXIS_PRESENTER_PX: f64 = 20.0;
/// Left label area, CSS px: room for `100k` and the axis name.
const LEFT_AXIS_PX: f64 = 58.0;
/// Right label area of the latency axis, CSS px: room for `1000 s`.
const RIGHT_AXIS_PX: f64 = 52.0;
/// Roughly how wide a character of the label font is, in font sizes.
const CHAR_EM: f64 = 0.58;

/// What every chart is drawn from.
#[derive(Debug)]
pub struct Frame<'a> {
    /// The samples on the x range, oldest first.
    pub samples: &'a [Sample],
    /// The bands, every kind.
    pub bands: &'a [Band],
    /// The x range, virtual seconds.
    pub x: (f64, f64),
    /// The colours.
    pub theme: &'a Theme,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// `Innodb_buffer_pool_pages_total`, for the y scale before the first sample.
    pub pages_total: u64,
    /// The labels' size, CSS px of the canvas: [`LABEL_PX`], larger in presenter
    /// mode (`canvas::host_scale::label_px`), where the whole drawing scales with it.
    pub label_px: f64,
    /// Presenter mode: fewer ticks, no time axis description.
    pub presenter: bool,
}

type Root = DrawingArea<CanvasBackend, Shift>;

/// A count series: which figure of a sample, its colour, its width in CSS px.
type Line = (fn(&Sample) -> u64, Rgb, f64);
/// A latency series: which figure of a sample (ms) and its colour.
type Latency = (fn(&Sample) -> f64, Rgb);

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

impl Frame<'_> {
    /// Device px per CSS px of the drawing's text, margins and strokes: the labels'
    /// growth in presenter mode on top of the canvas's own ratio.
    fn ink(&self) -> f64 {
        self.dpr * self.label_px / LABEL_PX
    }
    fn font(&self, size_css: f64, colour: Rgb) -> TextStyle<'static> {
        TextStyle {
            color: rgb(colour).to_backend_color(),
            ..TextStyle::from(("system-ui, sans-serif", size_css * self.ink()).into_font())
        }
    }
    fn line(&self, c: Rgb, width_css: f64) -> ShapeStyle {
        rgb(c).stroke_width((width_css * self.ink()).round().max(1.0) as u32)
    }
    fn px(&self, css: f64) -> f64 {
        css * self.ink()
    }
    /// The time axis's label area, device px.
    fn x_axis(&self) -> f64 {
        self.px(if self.presenter {
            X_AXIS_PRESENTER_PX
        } else {
            X_AXIS_PX
        })
    }
    /// The time axis's description: none in presenter mode.
    fn x_desc(&self) -> &'static str {
        if self.presenter {
            ""
        } else {
            "virtual time (s)"
        }
    }
    /// `own` value labels on a y axis, 3 in presenter mode.
    fn y_labels(&self, own: usize) -> usize {
        if self.presenter {
            3
        } else {
            own
        }
    }
    /// `(t_s, value)` of every visible sample.
    fn points(&self, v: impl Fn(&Sample) -> f64) -> Vec<(f64, f64)> {
        self.samples.iter().map(|s| (s.t_s as f64, v(s))).collect()
    }
    /// About one point per CSS pixel column of a plot `px` wide (device px).
    fn budget(&self, px: &Range<i32>) -> usize {
        (2.0 * f64::from(px.end - px.start) / self.dpr) as usize
    }
    /// X labels: about one per 80 CSS px.
    fn x_labels(&self, root: &Root) -> usize {
        ((f64::from(root.dim_in_pixel().0) / self.ink() / 80.0) as usize).clamp(3, 12)
    }
}

/// The canvas's drawing area, cleared to the background.
fn area(canvas: &HtmlCanvasElement, theme: &Theme) -> Result<Root, String> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("the chart canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&rgb(theme.background)).map_err(err)?;
    Ok(root)
}

/// A plot area in device px, as plotters reports it.
#[derive(Clone, Debug)]
struct PlotPx {
    x: Range<i32>,
    y: Range<i32>,
}

/// Draws the bands over `plot` (device px) on `root`, records them in `drawn`, and
/// labels them at the top when `labels` and there is room before the next band.
fn draw_bands(
    root: &Root,
    f: &Frame<'_>,
    plot: &PlotPx,
    labels: bool,
    drawn: &mut Drawn,
) -> Result<(), String> {
    let (x0, x1) = (f64::from(plot.x.start), f64::from(plot.x.end));
    let map = XMap {
        px0: x0,
        px1: x1,
        s0: f.x.0,
        s1: f.x.1,
    };
    if drawn.x == XMap::default() {
        drawn.x = XMap {
            px0: x0 / f.dpr,
            px1: x1 / f.dpr,
            ..map
        };
    }
    let theme = f.theme;
    let alpha = |light: f64, dark: f64| if theme.dark { dark } else { light };
    // Visible bands with their clipped pixel extent.
    let mut shown: Vec<(&Band, f64, f64)> = Vec::new();
    for b in f.bands {
        let a = map.px(b.t0.as_secs_f64());
        let z = map.px(b.t1.as_secs_f64()).max(a + f.px(MIN_BAND_PX));
        if z < x0 || a > x1 {
            continue;
        }
        shown.push((b, a.max(x0), z.min(x1)));
    }
    for &(b, a, z) in &shown {
        let (colour, fill) = match b.kind {
            BandKind::Statement => (theme.ddl_band, alpha(0.22, 0.3)),
            BandKind::LockWait => (theme.lock_band, alpha(0.1, 0.16)),
            BandKind::Failover => (theme.failover, alpha(0.14, 0.22)),
        };
        let rect = [(a as i32, plot.y.start), (z as i32, plot.y.end)];
        root.draw(&Rectangle::new(rect, rgb(colour).mix(fill).filled()))
            .map_err(err)?;
        match b.kind {
            // The failover instant: a solid edge at the band's end.
            BandKind::Failover => {
                let w = f.px(2.0) as i32;
                let edge = [(z as i32 - w, plot.y.start), (z as i32, plot.y.end)];
                root.draw(&Rectangle::new(edge, rgb(colour).filled()))
                    .map_err(err)?;
            }
            // A solid strip along the bottom, so a lock wait under a statement's band
            // still reads as its own colour.
            BandKind::LockWait => {
                let h = f.px(4.0) as i32;
                let strip = [(a as i32, plot.y.end - h), (z as i32, plot.y.end)];
                root.draw(&Rectangle::new(strip, rgb(colour).mix(0.8).filled()))
                    .map_err(err)?;
            }
            BandKind::Statement => {}
        }
        drawn.bands.push(HitBand {
            kind: b.kind,
            x0: a / f.dpr,
            x1: z / f.dpr,
            y0: f64::from(plot.y.start) / f.dpr,
            y1: f64::from(plot.y.end) / f.dpr,
            seek_to: b.t0,
            title: b.title.clone(),
        });
    }
    if !labels {
        return Ok(());
    }
    // One row of labels per kind, statements on top.
    for (row, kind) in [BandKind::Statement, BandKind::LockWait, BandKind::Failover]
        .into_iter()
        .enumerate()
    {
        let of_kind: Vec<(&Band, f64)> = shown
            .iter()
            .filter(|(b, ..)| b.kind == kind)
            .map(|&(b, a, _)| (b, a))
            .collect();
        let starts: Vec<f64> = of_kind.iter().map(|(_, a)| a / f.dpr).collect();
        let colour = match kind {
            BandKind::Statement => theme.ddl_band,
            BandKind::LockWait => theme.lock_band,
            BandKind::Failover => theme.failover,
        };
        for (i, (b, a)) in of_kind.iter().enumerate() {
            let room = geometry::label_room(&starts, i, x1 / f.dpr);
            let chars = (room / (f.label_px * CHAR_EM)) as usize;
            if chars < 5 {
                continue;
            }
            let y = f64::from(plot.y.start) + f.px(3.0 + row as f64 * (LABEL_PX + 3.0));
            root.draw(&Text::new(
                shorten(&b.label, chars),
                ((a + f.px(3.0)) as i32, y as i32),
                f.font(LABEL_PX, colour),
            ))
            .map_err(err)?;
        }
    }
    Ok(())
}

/// The note shown until the first sample.
fn waiting_note(root: &Root, f: &Frame<'_>) -> Result<(), String> {
    if f.samples.is_empty() {
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            "the first sample comes at t = 1 s",
            ((w / 2) as i32 - f.px(100.0) as i32, (h / 2) as i32),
            f.font(13.0, f.theme.text_muted),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// The chart builder every chart starts from.
fn builder<'a, 'b>(area: &'a Root, f: &Frame<'_>) -> ChartBuilder<'a, 'b, CanvasBackend> {
    let mut b = ChartBuilder::on(area);
    b.margin_top(f.px(8.0))
        .margin_right(f.px(12.0))
        .margin_left(f.px(4.0))
        .margin_bottom(f.px(2.0))
        .y_label_area_size(f.px(LEFT_AXIS_PX));
    b
}

/// The mesh every chart shares: no minor lines, a light grid, muted axes and labels,
/// as many time labels as fit. Each chart then sets its own axes' labels.
fn mesh_style<'m, 'a, 'b, X, Y>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, CanvasBackend>,
    f: &Frame<'_>,
    root: &Root,
) -> &'m mut MeshStyle<'a, 'b, X, Y, CanvasBackend>
where
    X: Ranged,
    Y: Ranged,
{
    let theme = f.theme;
    mesh.light_line_style(TRANSPARENT)
        .max_light_lines(1)
        .bold_line_style(f.line(theme.grid, 1.0))
        .axis_style(rgb(theme.text_muted))
        .label_style(f.font(LABEL_PX, theme.text_muted))
        .axis_desc_style(f.font(LABEL_PX, theme.text_muted))
        .x_labels(f.x_labels(root))
}

fn x_fmt(v: &f64) -> String {
    format!("{v:.0}")
}

fn count_fmt(v: &f64) -> String {
    format::count_short(*v)
}

/// Draws the throughput and latency chart: tps on the left axis, latency (mean, p95,
/// longest) on the right one, log scale.
pub fn draw_tps(canvas: &HtmlCanvasElement, f: &Frame<'_>) -> Result<Drawn, String> {
    let theme = f.theme;
    let root = area(canvas, theme)?;
    let (x_lo, x_hi) = f.x;
    let tps_max = f.samples.iter().map(|s| s.tps).max().unwrap_or(0).max(10) as f64;
    // Headroom for the band labels.
    let y_hi = tps_max * 1.3;
    // Seconds without a finished statement have no latency.
    let timed = || f.samples.iter().filter(|s| s.qps > 0);
    let fastest = timed()
        .map(|s| s.latency_avg_ms)
        .fold(f64::INFINITY, f64::min);
    let slowest = timed().map(|s| s.latency_max_ms).fold(0.0, f64::max);
    let (lat_lo, lat_hi) = if slowest > 0.0 {
        geometry::latency_range(fastest, slowest)
    } else {
        (0.01, 10.0)
    };

    let mut chart = builder(&root, f)
        .x_label_area_size(f.x_axis())
        .right_y_label_area_size(f.px(RIGHT_AXIS_PX))
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(err)?
        // A hair wider than whole decades: plotters labels a decade only when its
        // logarithm, computed in floating point, lies inside the range.
        .set_secondary_coord(x_lo..x_hi, (lat_lo * 0.999..lat_hi * 1.001).log_scale());
    mesh_style(&mut chart.configure_mesh(), f, &root)
        .y_labels(f.y_labels(5))
        .y_label_formatter(&count_fmt)
        .x_label_formatter(&x_fmt)
        .x_desc(f.x_desc())
        .y_desc("tps")
        .draw()
        .map_err(err)?;
    let (px_x, px_y) = chart.plotting_area().get_pixel_range();
    let plot = PlotPx { x: px_x, y: px_y };
    // The latency axis on the right, drawn here rather than by plotters, which sizes
    // right-hand labels by laying each out in the page (a forced reflow per label).
    let axis_x = plot.x.end;
    let muted = rgb(theme.text_muted);
    root.draw(&PathElement::new(
        vec![(axis_x, plot.y.start), (axis_x, plot.y.end)],
        muted,
    ))
    .map_err(err)?;
    let label = f
        .font(LABEL_PX, theme.text_muted)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut decade = lat_lo;
    while decade <= lat_hi * 1.001 {
        let (_, y) = chart.borrow_secondary().backend_coord(&(x_hi, decade));
        let tick = f.px(5.0) as i32;
        root.draw(&PathElement::new(
            vec![(axis_x, y), (axis_x + tick, y)],
            muted,
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            geometry::ms_label(decade),
            (axis_x + tick + f.px(3.0) as i32, y),
            label.clone(),
        ))
        .map_err(err)?;
        decade *= 10.0;
    }
    let mut drawn = Drawn::default();
    draw_bands(&root, f, &plot, true, &mut drawn)?;

    let budget = f.budget(&plot.x);
    // A line, not an area: a filled area would read as one of the bands.
    chart
        .draw_series(LineSeries::new(
            geometry::thin(&f.points(|s| s.tps as f64), budget),
            f.line(theme.qps, 2.0),
        ))
        .map_err(err)?;
    let latencies: [Latency; 3] = [
        (|s| s.latency_avg_ms, theme.latency_avg),
        (|s| s.latency_p95_ms, theme.latency_p95),
        (|s| s.latency_max_ms, theme.latency_max),
    ];
    for (value, colour) in latencies {
        let points = f.samples.iter().map(|s| {
            let v = (s.qps > 0).then(|| value(s).clamp(lat_lo, lat_hi));
            (s.t_s as f64, v)
        });
        for run in geometry::runs(points) {
            chart
                .draw_secondary_series(LineSeries::new(
                    geometry::thin(&run, budget),
                    f.line(colour, 1.5),
                ))
                .map_err(err)?;
        }
    }
    if let Some(last) = f.samples.last() {
        chart
            .draw_series([Circle::new(
                (last.t_s as f64, last.tps as f64),
                f.px(3.0),
                rgb(theme.qps).filled(),
            )])
            .map_err(err)?;
    }
    waiting_note(&root, f)?;
    root.present().map_err(err)?;
    Ok(drawn)
}

/// Draws the buffer-pool chart: the page counts above, and below, on a log scale, the
/// rates (reads, read requests, waits for a free block).
pub fn draw_bp(canvas: &HtmlCanvasElement, f: &Frame<'_>) -> Result<Drawn, String> {
    let theme = f.theme;
    let root = area(canvas, theme)?;
    let (x_lo, x_hi) = f.x;
    let (_, h) = root.dim_in_pixel();
    let (upper, lower) = root.split_vertically(f64::from(h) * 0.58);
    let mut drawn = Drawn::default();
    let budget;

    // Pages.
    {
        let total = f
            .samples
            .last()
            .map_or(f.pages_total, |s| s.pages_total)
            .max(1) as f64;
        let y_hi = total * 1.25;
        let mut chart = builder(&upper, f)
            .margin_bottom(f.px(12.0))
            .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
            .map_err(err)?;
        let blank = |_: &f64| String::new();
        mesh_style(&mut chart.configure_mesh(), f, &root)
            .x_label_formatter(&blank)
            .y_labels(f.y_labels(4))
            .y_label_formatter(&count_fmt)
            .y_desc("pages")
            .draw()
            .map_err(err)?;
        let (px_x, px_y) = chart.plotting_area().get_pixel_range();
        let plot = PlotPx { x: px_x, y: px_y };
        draw_bands(&root, f, &plot, true, &mut drawn)?;
        budget = f.budget(&plot.x);
        let pts = |v: fn(&Sample) -> u64| geometry::thin(&f.points(|s| v(s) as f64), budget);
        chart
            .draw_series(
                AreaSeries::new(pts(|s| s.pages_stale), 0.0, rgb(theme.stale).mix(0.28))
                    .border_style(f.line(theme.stale, 2.0)),
            )
            .map_err(err)?;
        let lines: [Line; 5] = [
            (|s| s.pages_total, theme.total_line, 1.0),
            (|s| s.pages_misc, theme.memory, 1.5),
            (|s| s.pages_dirty, theme.dirty_line, 2.0),
            (|s| s.pages_data, DATA, 2.0),
            (|s| s.pages_free, theme.free_line, 2.0),
        ];
        for (value, colour, width) in lines {
            chart
                .draw_series(LineSeries::new(pts(value), f.line(colour, width)))
                .map_err(err)?;
        }
        if let Some(last) = f.samples.last() {
            let t = last.t_s as f64;
            let dot = |v: u64, c: Rgb| Circle::new((t, v as f64), f.px(3.0), rgb(c).filled());
            chart
                .draw_series(
                    lines[1..]
                        .iter()
                        .map(|(value, colour, _)| dot(value(last), *colour))
                        .chain([dot(last.pages_stale, theme.stale)]),
                )
                .map_err(err)?;
        }
    }

    // Rates, per second, log scale: zero is no point, so a line shows only while
    // something happens (wait_free is zero on a healthy server).
    {
        let max = f
            .samples
            .iter()
            .map(|s| s.read_requests.max(s.reads).max(s.wait_free))
            .max()
            .unwrap_or(0) as f64;
        let (lo, hi) = geometry::count_log_range(max);
        let mut chart = builder(&lower, f)
            .margin_top(f.px(6.0))
            .x_label_area_size(f.x_axis())
            .build_cartesian_2d(x_lo..x_hi, (lo * 0.999..hi * 1.001).log_scale())
            .map_err(err)?;
        mesh_style(&mut chart.configure_mesh(), f, &root)
            .x_label_formatter(&x_fmt)
            // The lower plot is short: two decades in presenter mode's large labels.
            .y_labels(if f.presenter { 2 } else { 4 })
            .y_label_formatter(&count_fmt)
            .x_desc(f.x_desc())
            .y_desc("per s")
            .draw()
            .map_err(err)?;
        let (px_x, px_y) = chart.plotting_area().get_pixel_range();
        draw_bands(&root, f, &PlotPx { x: px_x, y: px_y }, false, &mut drawn)?;
        let rates: [Line; 3] = [
            (|s| s.read_requests, theme.read_requests_line, 1.5),
            (|s| s.reads, theme.reads_line, 1.5),
            (|s| s.wait_free, theme.wait_free_line, 2.0),
        ];
        for (value, colour, width) in rates {
            let points = f.samples.iter().map(|s| {
                let v = value(s);
                (s.t_s as f64, (v > 0).then(|| (v as f64).min(hi)))
            });
            for run in geometry::runs(points) {
                chart
                    .draw_series(LineSeries::new(
                        geometry::thin(&run, budget),
                        f.line(colour, width),
                    ))
                    .map_err(err)?;
            }
        }
    }

    waiting_note(&root, f)?;
    root.present().map_err(err)?;
    Ok(drawn)
}

/// Draws the waits chart: sessions waiting for a metadata lock, for a row lock, and
/// threads queued for an internal latch, each second's peak held over the second.
pub fn draw_waits(canvas: &HtmlCanvasElement, f: &Frame<'_>) -> Result<Drawn, String> {
    let theme = f.theme;
    let root = area(canvas, theme)?;
    let (x_lo, x_hi) = f.x;
    let peak = f
        .samples
        .iter()
        .map(|s| s.mdl_waits.max(s.row_lock_waits).max(s.latch_waits))
        .max()
        .unwrap_or(0)
        .max(4) as f64;
    let y_hi = (peak * 1.35).ceil();
    let mut chart = builder(&root, f)
        .x_label_area_size(f.x_axis())
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(err)?;
    let whole = |v: &f64| {
        if v.fract() == 0.0 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    mesh_style(&mut chart.configure_mesh(), f, &root)
        .y_labels(f.y_labels(5))
        .y_label_formatter(&whole)
        .x_label_formatter(&x_fmt)
        .x_desc(f.x_desc())
        .y_desc("waiting")
        .draw()
        .map_err(err)?;
    let (px_x, px_y) = chart.plotting_area().get_pixel_range();
    let plot = PlotPx { x: px_x, y: px_y };
    let mut drawn = Drawn::default();
    draw_bands(&root, f, &plot, true, &mut drawn)?;
    let budget = f.budget(&plot.x);
    let lines: [Line; 3] = [
        (|s| s.latch_waits, theme.latch_line, 1.5),
        (|s| s.row_lock_waits, theme.row_lock_line, 2.0),
        (|s| s.mdl_waits, theme.lock_band, 2.5),
    ];
    for (value, colour, width) in lines {
        // Thinned first (whole seconds), then drawn as steps over each second.
        let points = geometry::thin(&f.points(|s| value(s) as f64), budget);
        chart
            .draw_series(LineSeries::new(
                geometry::steps(points.into_iter()),
                f.line(colour, width),
            ))
            .map_err(err)?;
    }
    waiting_note(&root, f)?;
    root.present().map_err(err)?;
    Ok(drawn)
}
