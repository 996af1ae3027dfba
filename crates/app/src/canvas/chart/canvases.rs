//! The three charts' canvases, and drawing them from the runner's samples and spans
//! (see the module above for when); what each draw leaves for the pointer handlers.

use super::bands;
use super::draw::{self, Frame};
use super::geometry::{self, Drawn};
use crate::canvas::host_scale;
use crate::canvas::theme::Theme;
use crate::model::spans::{DdlSpan, FailoverMark};
use crate::worker::perf_marks::now_ms;
use ddlscope_engine::{Sample, Tick};
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::NodeRef;

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Throughput and latency.
    Tps,
    /// Buffer-pool pages and rates.
    Bp,
    /// Lock and latch waits.
    Waits,
}

impl Which {
    /// The canvas's CSS height: the buffer-pool chart holds two plots.
    pub fn css_height(self) -> f64 {
        match self {
            Which::Tps | Which::Waits => 220.0,
            Which::Bp => 300.0,
        }
    }
    /// The canvas's `data-testid`, which the browser tests rely on.
    pub fn test_id(self) -> &'static str {
        match self {
            Which::Tps => "chart-tps",
            Which::Bp => "chart-bp",
            Which::Waits => "chart-waits",
        }
    }
}

/// One chart's canvas and what its last draw left for the pointer handlers.
#[derive(Clone, Debug, Default)]
pub struct ChartSlot {
    /// The canvas the frame loop draws into.
    pub canvas: NodeRef,
    /// The last draw's mapping and bands.
    pub drawn: Rc<RefCell<Drawn>>,
}

impl PartialEq for ChartSlot {
    fn eq(&self, other: &ChartSlot) -> bool {
        self.canvas == other.canvas && Rc::ptr_eq(&self.drawn, &other.drawn)
    }
}

/// The three charts' slots.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartCanvases {
    /// Throughput and latency.
    pub tps: ChartSlot,
    /// Buffer pool.
    pub bp: ChartSlot,
    /// Waits.
    pub waits: ChartSlot,
}

/// What the charts are drawn from, as the runner has it.
#[derive(Debug)]
pub struct Input<'a> {
    /// Every sample so far.
    pub samples: &'a [Sample],
    /// The console statements.
    pub spans: &'a [DdlSpan],
    /// The HA probe's failovers.
    pub failovers: &'a [FailoverMark],
    /// The virtual time.
    pub now: Tick,
    /// `Innodb_buffer_pool_pages_total`.
    pub pages_total: u64,
}

/// The samples on the x range `x_lo..` (samples are in time order: a binary search).
pub fn visible(samples: &[Sample], x_lo: f64) -> &[Sample] {
    let first = samples.partition_point(|s| (s.t_s as f64) < x_lo);
    &samples[first..]
}

impl ChartCanvases {
    fn slots(&self) -> [(Which, &ChartSlot); 3] {
        [
            (Which::Tps, &self.tps),
            (Which::Bp, &self.bp),
            (Which::Waits, &self.waits),
        ]
    }

    /// Sizes each mounted canvas's pixel buffer to its CSS box (see
    /// [`crate::canvas::panel::fit`]); the sizes in device px, `(0, 0)` when not mounted.
    pub fn fit(&self, dpr: f64) -> [(u32, u32); 3] {
        self.slots().map(|(which, slot)| {
            slot.canvas.cast::<HtmlCanvasElement>().map_or((0, 0), |c| {
                crate::canvas::panel::fit(&c, which.css_height(), dpr)
            })
        })
    }

    /// Draws the mounted charts `pick` picks, keeps what each drew for its pointer handlers, and
    /// lists the bands on the canvas (`data-bands`: how many; `data-band-hits`: where)
    /// for the browser tests. Errors go to the console: a chart that fails to draw
    /// must not stop the simulation.
    pub fn draw(&self, input: &Input<'_>, theme: &Theme, dpr: f64, pick: impl Fn(Which) -> bool) {
        let last_s = input
            .samples
            .last()
            .map_or(0.0, |s| s.t_s as f64)
            .max(input.now.as_secs_f64().floor());
        let x = geometry::x_range(last_s);
        let bands = bands::bands(input.samples, input.spans, input.failovers, input.now);
        let frame = Frame {
            samples: visible(input.samples, x.0),
            bands: &bands,
            x,
            theme,
            dpr,
            pages_total: input.pages_total,
            label_px: host_scale::label_px(draw::LABEL_PX),
            presenter: host_scale::presenting(),
        };
        for (which, slot) in self.slots().into_iter().filter(|(w, _)| pick(*w)) {
            let Some(canvas) = slot.canvas.cast::<HtmlCanvasElement>() else {
                continue;
            };
            if canvas.width() == 0 {
                continue;
            }
            let started = now_ms();
            let result = match which {
                Which::Tps => draw::draw_tps(&canvas, &frame),
                Which::Bp => draw::draw_bp(&canvas, &frame),
                Which::Waits => draw::draw_waits(&canvas, &frame),
            };
            match result {
                Ok(drawn) => {
                    let took = now_ms() - started;
                    let count = drawn.describe();
                    let _ = canvas.set_attribute("data-bands", &drawn_count(&count).to_string());
                    let _ = canvas.set_attribute("data-band-hits", &count);
                    let _ = canvas.set_attribute("data-draw-ms", &format!("{took:.2}"));
                    // The labels' size, CSS px of the canvas (the browser tests read
                    // it times the panel's zoom: the text as seen).
                    let _ =
                        canvas.set_attribute("data-label-px", &format!("{:.3}", frame.label_px));
                    *slot.drawn.borrow_mut() = drawn;
                }
                Err(e) => gloo::console::error!(format!("chart {}: {e}", which.test_id())),
            }
        }
    }
}

/// How many bands a [`Drawn::describe`] list names.
fn drawn_count(described: &str) -> usize {
    described.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_visible_samples_start_at_the_window() {
        let samples: Vec<Sample> = (1..=1000)
            .map(|t| {
                let mut s = bands::tests_sample(t);
                s.tps = t;
                s
            })
            .collect();
        let (lo, _) = geometry::x_range(1000.0);
        let v = visible(&samples, lo);
        assert_eq!(v.first().map(|s| s.t_s), Some(400));
        assert_eq!(v.len(), 601);
        assert_eq!(visible(&samples, 0.0).len(), 1000);
        assert!(visible(&samples, 1001.0).is_empty());
        assert_eq!(drawn_count("statement:1:5 lock-wait:0:9"), 2);
        assert_eq!(drawn_count(""), 0);
    }
}
