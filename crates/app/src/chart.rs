//! The buffer-pool chart: free, data and stale pages over virtual time, one point per
//! virtual second, as a monitoring dashboard would plot `Innodb_buffer_pool_pages_*`.
//!
//! Statements from the console are shaded bands from StatementStarted to
//! StatementFinished, so the figure a DROP TABLE leaves (free pages jumping at once on
//! 5.7; stale pages appearing and draining for tens of seconds on 8.0.23) lines up with
//! the statement that caused it. A 5.7 drop lasts well under a second, so a band is at
//! least a few pixels wide.
//!
//! Drawn with plotters on its canvas backend, only when a sample arrives (or the
//! canvas, the theme or the statements change), never every frame. The x axis shows
//! the whole run while it is short, then the last 90 virtual seconds.

use crate::format;
use crate::runner::DdlSpan;
use crate::theme::{self, Rgb, Theme};
use ddlscope_engine::{Sample, Tick};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The canvas's CSS height.
const CSS_HEIGHT: f64 = 200.0;
/// Seconds shown once the run is longer than this.
const WINDOW_S: f64 = 90.0;
/// The axis is never shorter than this.
const MIN_SPAN_S: f64 = 30.0;
/// Narrowest band, CSS px.
const MIN_BAND_PX: f64 = 4.0;
/// Data pages: the colour of clean pages in the stylesheet (`--page-clean`).
const DATA: Rgb = [0x3b, 0x82, 0xf6];

/// Sizes the canvas's pixel buffer to its CSS width × device pixel ratio. Returns the
/// size in device pixels.
pub fn fit_canvas(canvas: &HtmlCanvasElement, dpr: f64) -> (u32, u32) {
    let w = (f64::from(canvas.client_width()) * dpr).round() as u32;
    let h = (CSS_HEIGHT * dpr).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    (w, h)
}

/// The x range in seconds for a run whose last sample is at `last_s`.
fn x_range(last_s: f64) -> (f64, f64) {
    let lo = (last_s - WINDOW_S).max(0.0).floor();
    let hi = (last_s + 2.0).max(lo + MIN_SPAN_S);
    (lo, hi)
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// Draws the chart. `pages_total` sets the y scale before the first sample.
pub fn draw(
    canvas: &HtmlCanvasElement,
    samples: &[Sample],
    spans: &[DdlSpan],
    now: Tick,
    pages_total: u64,
    theme: &Theme,
    dpr: f64,
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("the chart canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    root.fill(&rgb(theme.background)).map_err(err)?;

    let last_s = samples
        .last()
        .map_or(0.0, |s| s.t_s as f64)
        .max(now.as_secs_f64().floor());
    let (x_lo, x_hi) = x_range(last_s);
    let total = samples.last().map_or(pages_total, |s| s.pages_total).max(1) as f64;
    let y_hi = total * 1.08;

    let font = |size: f64, colour: Rgb| TextStyle {
        color: rgb(colour).to_backend_color(),
        ..TextStyle::from(("system-ui, sans-serif", size * dpr).into_font())
    };
    let mut chart = ChartBuilder::on(&root)
        .margin_top(10.0 * dpr)
        .margin_right(14.0 * dpr)
        .margin_left(6.0 * dpr)
        .margin_bottom(4.0 * dpr)
        .x_label_area_size(34.0 * dpr)
        .y_label_area_size(44.0 * dpr)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(err)?;
    let y_fmt = |v: &f64| format::pages_short(*v);
    let x_fmt = |v: &f64| format!("{v:.0}");
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(rgb(theme.grid).stroke_width(dpr.round().max(1.0) as u32))
        .axis_style(rgb(theme.text_muted))
        .label_style(font(11.0, theme.text_muted))
        .axis_desc_style(font(11.0, theme.text_muted))
        .x_labels(10)
        .y_labels(6)
        .y_label_formatter(&y_fmt)
        .x_label_formatter(&x_fmt)
        .x_desc("virtual time (s)")
        .draw()
        .map_err(err)?;

    // DDL bands under the lines.
    let px = chart.plotting_area().get_pixel_range().0;
    let (px_lo, px_hi) = (px.start, px.end);
    let secs_per_px = (x_hi - x_lo) / f64::from((px_hi - px_lo).max(1));
    let min_w = MIN_BAND_PX * dpr * secs_per_px;
    let band = rgb(theme.ddl_band);
    let visible: Vec<(f64, f64, &str)> = spans
        .iter()
        .map(|s| {
            let t0 = s.t0.as_secs_f64();
            let t1 = s.t1.unwrap_or(now).as_secs_f64().max(t0 + min_w);
            (t0, t1, s.sql.as_str())
        })
        .filter(|(t0, t1, _)| *t1 >= x_lo && *t0 <= x_hi)
        .collect();
    chart
        .draw_series(visible.iter().map(|(t0, t1, _)| {
            Rectangle::new(
                [(t0.max(x_lo), 0.0), (t1.min(x_hi), y_hi)],
                band.mix(if theme.dark { 0.3 } else { 0.22 }).filled(),
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
                (t0.max(x_lo) + 3.0 * dpr * secs_per_px, y_hi * 0.995),
                font(10.5, theme.ddl_band),
            )
        }))
        .map_err(err)?;

    let line = |c: Rgb| rgb(c).stroke_width((2.0 * dpr).round() as u32);
    let points = |f: fn(&Sample) -> u64| samples.iter().map(move |s| (s.t_s as f64, f(s) as f64));
    chart
        .draw_series(
            AreaSeries::new(points(|s| s.pages_stale), 0.0, rgb(theme.stale).mix(0.28))
                .border_style(line(theme.stale)),
        )
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(points(|s| s.pages_data), line(DATA)))
        .map_err(err)?;
    chart
        .draw_series(LineSeries::new(
            points(|s| s.pages_free),
            line(theme.free_line),
        ))
        .map_err(err)?;

    // The latest second of each series, marked.
    if let Some(last) = samples.last() {
        let t = last.t_s as f64;
        let dot = |v: u64, c: Rgb| Circle::new((t, v as f64), 3.0 * dpr, rgb(c).filled());
        chart
            .draw_series([
                dot(last.pages_data, DATA),
                dot(last.pages_free, theme.free_line),
                dot(last.pages_stale, theme.stale),
            ])
            .map_err(err)?;
    }

    if samples.is_empty() {
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            "the first sample comes at t = 1 s",
            ((w / 2) as i32 - (95.0 * dpr) as i32, (h / 2) as i32),
            font(12.0, theme.text_muted),
        ))
        .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// Properties of [`Chart`].
#[derive(Properties, PartialEq, Debug)]
pub struct ChartProps {
    /// The canvas the frame loop draws into.
    pub canvas: NodeRef,
}

/// The chart panel: title, canvas and legend. The frame loop does the drawing.
#[function_component(Chart)]
pub fn chart(props: &ChartProps) -> Html {
    let subtle = "text-transform: none; letter-spacing: 0; font-weight: 400";
    let swatch = |c: Rgb| format!("--swatch: {}", theme::css(c));
    html! {
        <section class="panel charts" aria-labelledby="chart-title">
            <h2 class="panel-title" id="chart-title">
                <span>{ "Buffer pool pages" }</span>
                <span style={subtle}>{ "one point per virtual second" }</span>
            </h2>
            <canvas
                ref={props.canvas.clone()}
                data-testid="chart-bp"
                style={format!("height: {CSS_HEIGHT}px")}
                role="img"
                aria-label="Chart of free, data and stale buffer-pool pages over virtual time, with DDL statements shaded"
            />
            <ul class="legend">
                <li><span class="swatch" style={swatch(DATA)}></span>{ "Innodb_buffer_pool_pages_data" }</li>
                <li><span class="swatch" style="--swatch: var(--ok)"></span>{ "Innodb_buffer_pool_pages_free" }</li>
                <li><span class="swatch stale"></span>{ "stale pages" }</li>
                <li><span class="swatch" style="--swatch: color-mix(in srgb, var(--warning) 35%, transparent)"></span>{ "a statement from the console running" }</li>
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
}
